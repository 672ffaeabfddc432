import { enhanceAudioFile } from '@stemdeck/audio';
import { join } from 'node:path';
import type { EnhancedFile, EnhanceProvider, EnhanceStemRequest } from '../jobs/jobs.ports';
import { loudnessFigures } from '../mastering/loudness-figures';
import type { JobScratch } from '../scratch/job-scratch';

/**
 * Our own enhancement engine (libs/audio): the chosen cleanups on one stem, written as 24-bit FLAC at the
 * stem's rate and channels into a scratch folder under JOBS_WORK_DIR, removed by `dispose` (or at once on
 * failure).
 */
export class LocalEnhanceProvider implements EnhanceProvider {
  readonly name = 'local' as const;

  constructor(private readonly scratch: JobScratch) {}

  async enhanceStem(request: EnhanceStemRequest): Promise<EnhancedFile> {
    const { dir, dispose } = await this.scratch.create('enhance');
    try {
      const output = join(dir, 'enhanced.flac');
      const result = await enhanceAudioFile({
        input: request.input,
        output,
        enhancements: request.enhancements,
        onProgress: request.onProgress,
        signal: request.signal,
        // its intermediate files inside the job's folder, so the boot sweep removes what a crash left
        tmpDir: dir,
      });
      return { path: output, contentType: 'audio/flac', before: loudnessFigures(result.before), after: loudnessFigures(result.after), dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }
}
