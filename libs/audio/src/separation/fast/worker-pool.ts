import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StemSet } from '../../types';
import type { FastParameters } from './parameters';
import type { SegmentWorkerData, SegmentWorkerReply, SegmentWorkerRequest, StreamWorkerData, StreamWorkerRequest } from './segment-worker';
import type { SegmentSlice } from './stream-separator';

/** The compiled worker script; absent when running from TypeScript sources (e.g. under jest). */
const WORKER_SCRIPT = join(__dirname, 'segment-worker.js');

export function segmentWorkerAvailable(): boolean {
  return existsSync(WORKER_SCRIPT);
}

/**
 * Separates every segment on `threads` workers, handing the next segment to whichever worker finishes
 * first; resolves when all are done and the workers have exited. `data` must hold shared buffers.
 */
export async function separateInWorkers(
  data: SegmentWorkerData,
  threads: number,
  onSegmentDone: (doneCount: number, segment: number) => void,
): Promise<void> {
  const total = data.segments.length;
  const workers = Array.from({ length: Math.min(threads, total) }, () => new Worker(WORKER_SCRIPT, { workerData: data }));
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const handOut = (worker: Worker) => {
        if (next < total) worker.postMessage({ segment: next++ } satisfies SegmentWorkerRequest);
      };
      for (const worker of workers) {
        worker.on('message', (reply: SegmentWorkerReply) => {
          onSegmentDone(++done, reply.done);
          if (done === total) resolve();
          else handOut(worker);
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (done < total) reject(new Error(`fast separation worker exited with code ${code}`));
        });
        handOut(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** What a thread answers for one streamed segment: the owned samples of the four stems. */
export interface SegmentResult {
  ownedFrom: number;
  stems: StemSet;
}

/**
 * Worker threads for a streamed separation: each receives a segment's own input slice (transferred, not
 * shared: the song is never in memory as a whole) and answers its owned stem samples. One pool per job;
 * `close` ends the threads, so nothing of a job stays allocated after it.
 */
export class SegmentThreadPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<(worker: Worker) => void> = [];
  private readonly workers: Worker[];
  private failure?: Error;

  constructor(params: FastParameters, maxFrames: number, threads: number) {
    const data: StreamWorkerData = { stream: true, params, maxFrames };
    this.workers = Array.from({ length: threads }, () => new Worker(WORKER_SCRIPT, { workerData: data }));
    for (const worker of this.workers) {
      worker.on('error', (error) => (this.failure ??= error));
      worker.on('exit', (code) => (this.failure ??= new Error(`fast separation worker exited with code ${code}`)));
      this.idle.push(worker);
    }
  }

  async separate(slice: SegmentSlice): Promise<SegmentResult> {
    const worker = await this.take();
    try {
      return await new Promise<SegmentResult>((resolve, reject) => {
        const onMessage = (result: SegmentResult) => (cleanup(), resolve(result));
        const onGone = (error: unknown) => (cleanup(), reject(error instanceof Error ? error : new Error(`fast separation worker exited with code ${error}`)));
        const cleanup = () => {
          worker.off('message', onMessage);
          worker.off('error', onGone);
          worker.off('exit', onGone);
        };
        worker.on('message', onMessage);
        worker.on('error', onGone);
        worker.on('exit', onGone);
        worker.postMessage({ slice } satisfies StreamWorkerRequest, [slice.left.buffer, slice.right.buffer] as ArrayBuffer[]);
      });
    } finally {
      this.give(worker);
    }
  }

  async close(): Promise<void> {
    this.failure ??= new Error('pool closed');
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private take(): Promise<Worker> {
    if (this.failure) return Promise.reject(this.failure);
    const worker = this.idle.pop();
    if (worker) return Promise.resolve(worker);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private give(worker: Worker): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(worker);
    else this.idle.push(worker);
  }
}
