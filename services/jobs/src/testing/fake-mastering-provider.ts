import type { MasteredFile, MasteredSet, MasteringProvider, MasterMixRequest, MasterSetRequest } from '../jobs/jobs.ports';

/** Reports each step as ffmpeg would (the event loop runs between them), stopping once the signal is aborted. */
export async function reportSteps(
  steps: number[],
  request: { onProgress(fraction: number): void; signal: AbortSignal },
  afterStep: (fraction: number) => Promise<void> | void,
): Promise<void> {
  for (const fraction of steps) {
    request.signal.throwIfAborted();
    request.onProgress(fraction);
    await afterStep(fraction);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  }
  request.signal.throwIfAborted();
}

/**
 * A provider that reports `steps` progress fractions (letting the event loop run between them, as ffmpeg's
 * reports would), honours the abort signal, and answers fixed figures; `failures` attempts throw first.
 */
export class FakeMasteringProvider implements MasteringProvider {
  readonly name = 'local' as const;
  readonly requests: MasterMixRequest[] = [];
  readonly setRequests: MasterSetRequest[] = [];
  failures = 0;
  failure = new Error('ffmpeg exited with code 1');
  steps = [0.1, 0.4, 0.7, 0.9];
  /** Called after each progress report (a test can cancel the job there). */
  onStep?: (fraction: number) => Promise<void> | void;
  disposed = 0;

  async masterMix(request: MasterMixRequest): Promise<MasteredFile> {
    this.requests.push(request);
    if (this.failures > 0) {
      this.failures--;
      throw this.failure;
    }
    await reportSteps(this.steps, request, (fraction) => this.onStep?.(fraction));
    return {
      path: '/work/master.flac',
      contentType: 'audio/flac',
      before: { integratedLufs: -20.3, lra: 6.1, truePeakDbtp: -3.2 },
      after: { integratedLufs: -14.1, lra: 4.2, truePeakDbtp: -1.1 },
      dispose: async () => void this.disposed++,
    };
  }

  async masterSet(request: MasterSetRequest): Promise<MasteredSet> {
    this.setRequests.push(request);
    const file = await this.masterMix({ stems: request.parts.flatMap((part) => part.stems), style: request.style, intensity: request.intensity, onProgress: request.onProgress, signal: request.signal });
    return {
      files: [...request.parts.map((part) => ({ name: part.name, path: `/work/${part.name}`, contentType: 'audio/flac' })), { name: request.sum, path: '/work/sum.flac', contentType: 'audio/flac' }],
      before: file.before,
      after: file.after,
      dispose: file.dispose,
    };
  }
}
