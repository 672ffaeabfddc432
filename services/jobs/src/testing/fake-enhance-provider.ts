import type { EnhancedFile, EnhanceProvider, EnhanceStemRequest } from '../jobs/jobs.ports';
import { reportSteps } from './fake-mastering-provider';

/**
 * An enhancer that reports `steps` progress fractions per stem (letting the event loop run between them),
 * honours the abort signal, and answers fixed figures (after at −16 LUFS); `failures` stems throw first.
 */
export class FakeEnhanceProvider implements EnhanceProvider {
  readonly name = 'local' as const;
  readonly requests: EnhanceStemRequest[] = [];
  failures = 0;
  failure = new Error('ffmpeg exited with code 1');
  steps = [0.25, 0.5, 0.75, 1];
  /** Called after each progress report with the stem's input (a test can cancel the job there). */
  onStep?: (input: string, fraction: number) => Promise<void> | void;
  disposed = 0;

  async enhanceStem(request: EnhanceStemRequest): Promise<EnhancedFile> {
    this.requests.push(request);
    if (this.failures > 0) {
      this.failures--;
      throw this.failure;
    }
    await reportSteps(this.steps, request, (fraction) => this.onStep?.(request.input, fraction));
    const name = request.input.slice(request.input.lastIndexOf('/') + 1);
    return {
      path: `/work/enhanced-${name}`,
      contentType: 'audio/flac',
      before: { integratedLufs: -23.4, lra: 7.2, truePeakDbtp: -6.1 },
      after: { integratedLufs: -16, lra: 6.8, truePeakDbtp: -1.2 },
      dispose: async () => void this.disposed++,
    };
  }
}
