import type { OnnxEngineName, OnnxSeparatorSpec, SeparationProgress, Separator, StemSet, StereoAudio } from '@stemdeck/audio';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

type ThreadMessage = { loaded?: true; progress?: number; stems?: StemSet; error?: string };

/**
 * An ONNX engine running in its own worker thread, so the media service keeps answering requests and
 * heartbeating its job while a model computes. One job at a time per thread (the worker pulls one job).
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
  load(): Promise<void> {
    return this.exchange({ load: true }, [], () => undefined).then(() => undefined);
  }

  separate(mixture: StereoAudio, onProgress?: (progress: SeparationProgress) => void): Promise<StemSet> {
    // Copies, so the caller's mixture stays usable after the buffers are transferred.
    const copy: StereoAudio = { sampleRate: mixture.sampleRate, left: mixture.left.slice(), right: mixture.right.slice() };
    return this.exchange({ mixture: copy }, [copy.left.buffer, copy.right.buffer] as ArrayBuffer[], (fraction) =>
      onProgress?.({ fraction }),
    ) as Promise<StemSet>;
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private exchange(message: unknown, transfer: ArrayBuffer[], onProgress: (fraction: number) => void): Promise<StemSet | undefined> {
    const run = this.busy.then(
      () =>
        new Promise<StemSet | undefined>((resolve, reject) => {
          const onMessage = (reply: ThreadMessage) => {
            if (reply.progress !== undefined) return onProgress(reply.progress);
            cleanup();
            if (reply.error !== undefined) reject(new Error(reply.error));
            else resolve(reply.stems);
          };
          const onError = (error: Error) => (cleanup(), reject(error));
          const cleanup = () => {
            this.worker.off('message', onMessage);
            this.worker.off('error', onError);
          };
          this.worker.on('message', onMessage);
          this.worker.on('error', onError);
          this.worker.postMessage(message, transfer);
        }),
    );
    this.busy = run.catch(() => undefined);
    return run;
  }
}
