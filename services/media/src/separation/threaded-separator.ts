import type { OnnxEngineName, OnnxSeparatorSpec, SeparationProgress, Separator, StemSet, StereoAudio, StreamSeparationOptions, StreamSeparationResult } from '@stemdeck/audio';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import type { ThreadReply, ThreadRequest } from './separation-thread';

/**
 * An ONNX engine running in its own worker thread, so the media service keeps answering requests and
 * heartbeating its job while a model computes. One separation at a time per thread: a whole mixture
 * (`separate`, the song's first seconds) or a stream (`separateStream`, the whole song, chunk by chunk).
 */
export class ThreadedOnnxSeparator implements Separator {
  private readonly worker: Worker;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    readonly engine: OnnxEngineName,
    spec: OnnxSeparatorSpec,
  ) {
    this.worker = new Worker(join(__dirname, 'separation-thread.js'), { workerData: { engine, spec } });
    this.worker.unref();
  }

  /** Opens the model in the thread; rejects with the model's problem (missing file, wrong shapes). */
  async load(): Promise<void> {
    await this.exclusive(() => this.call({ load: true }));
  }

  async separate(mixture: StereoAudio, onProgress?: (progress: SeparationProgress) => void): Promise<StemSet> {
    const copy = copied(mixture);
    const reply = await this.exclusive(() => this.call({ mixture: copy }, [copy.left.buffer, copy.right.buffer] as ArrayBuffer[], onProgress));
    return reply.stems!;
  }

  /**
   * The song as it is decoded: each chunk goes to the thread, which answers with the stems it finished
   * (one chunk in flight, so neither side holds more than a few model windows), handed to `write` in order.
   */
  separateStream(source: AsyncIterable<StereoAudio>, write: (stems: StemSet) => Promise<void>, options: Omit<StreamSeparationOptions, 'threads'> = {}): Promise<StreamSeparationResult> {
    return this.exclusive(async () => {
      let sampleRate = 0;
      let frames = 0;
      let open = false;
      const deliver = async (reply: ThreadReply) => {
        if (reply.stems && reply.stems.vocals.left.length > 0) await write(reply.stems);
      };
      try {
        for await (const chunk of source) {
          if (!open) {
            sampleRate = chunk.sampleRate;
            await this.call({ open: { sampleRate, expectedFrames: options.expectedFrames } }, [], options.onProgress);
            open = true;
          }
          frames += chunk.left.length;
          const copy = copied(chunk);
          await deliver(await this.call({ chunk: copy }, [copy.left.buffer, copy.right.buffer] as ArrayBuffer[], options.onProgress));
        }
        if (open) {
          open = false;
          await deliver(await this.call({ end: true }, [], options.onProgress));
        }
        return { frames, sampleRate };
      } finally {
        // Given up half-way (a write failed, the project went): the thread drops its stream.
        if (open) await this.call({ close: true }).catch(() => undefined);
      }
    });
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  /** Runs `work` once every earlier exchange with the thread has finished. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.busy.then(work);
    this.busy = run.catch(() => undefined);
    return run;
  }

  /** One request and its final reply; progress replies in between go to `onProgress`. */
  private call(message: ThreadRequest, transfer: ArrayBuffer[] = [], onProgress?: (progress: SeparationProgress) => void): Promise<ThreadReply> {
    return new Promise<ThreadReply>((resolve, reject) => {
      const onMessage = (reply: ThreadReply) => {
        if (reply.progress !== undefined) return onProgress?.({ fraction: reply.progress });
        cleanup();
        if (reply.error !== undefined) reject(new Error(reply.error));
        else resolve(reply);
      };
      const onError = (error: Error) => (cleanup(), reject(error));
      const cleanup = () => {
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.postMessage(message, transfer);
    });
  }
}

/** A copy to transfer to the thread: the caller's audio (maybe a view into a whole song) stays usable. */
function copied({ sampleRate, left, right }: StereoAudio): StereoAudio {
  return { sampleRate, left: left.slice(), right: right.slice() };
}
