import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SegmentWorkerData, SegmentWorkerReply, SegmentWorkerRequest } from './segment-worker';

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
  onSegmentDone: (doneCount: number) => void,
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
        worker.on('message', (_reply: SegmentWorkerReply) => {
          onSegmentDone(++done);
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
