import { masterAudioFile, mixAudioFiles } from '@stemdeck/audio';
import { weightedProgress } from '@stemdeck/platform';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { MasteredFile, MasteredSet, MasteringProvider, MasterMixRequest, MasterSetRequest } from '../jobs/jobs.ports';
import type { JobScratch } from '../scratch/job-scratch';
import { loudnessFigures as figures } from './loudness-figures';

/** Share of the progress bar for summing the stems (the mastering passes take the rest). */
const MIX_SHARE = 0.1;

/**
 * Our own mastering (libs/audio): the stems summed at their mixer gains into a float WAV, then the style's
 * chain, R128 loudness to the intensity's target and the true-peak limiter, written as 24-bit FLAC. Scratch
 * files live in one folder per job under JOBS_WORK_DIR, removed by `dispose` (or at once on failure).
 */
export class LocalMasteringProvider implements MasteringProvider {
  readonly name = 'local' as const;

  constructor(private readonly scratch: JobScratch) {}

  async masterMix(request: MasterMixRequest): Promise<MasteredFile> {
    const { dir: work, dispose } = await this.scratch.create('master');
    try {
      const mix = join(work, 'mix.wav');
      await mixAudioFiles({
        stems: request.stems.map((stem) => ({ input: stem.input, gainDb: stem.gainDb })),
        output: mix,
        signal: request.signal,
        onProgress: (fraction) => request.onProgress(fraction * MIX_SHARE),
      });
      const output = join(work, 'master.flac');
      const result = await masterAudioFile({
        input: mix,
        output,
        style: request.style,
        intensity: request.intensity,
        tmpDir: work,
        signal: request.signal,
        onProgress: (fraction) => request.onProgress(MIX_SHARE + fraction * (1 - MIX_SHARE)),
      });
      return { path: output, contentType: 'audio/flac', before: figures(result.before), after: figures(result.after), dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  /**
   * Each part mixed at its gains and mastered (style, intensity); then the mastered parts summed at unity and
   * the sum brought to the same loudness target under the style's limiter and the true-peak ceiling, without
   * the style's EQ and compression: the parts carry them already, a second pass would colour them twice.
   * Passes are weighted: a part's mix MIX_SHARE, its master 1, and the same for the sum.
   */
  async masterSet(request: MasterSetRequest): Promise<MasteredSet> {
    const { dir: work, dispose } = await this.scratch.create('master');
    const passes = request.parts.length + 1;
    const weights = Array.from({ length: passes }, () => [MIX_SHARE, 1 - MIX_SHARE]).flat();
    const pass = weightedProgress(weights, request.onProgress);
    try {
      const files: MasteredSet['files'] = [];
      for (const [index, part] of request.parts.entries()) {
        const mix = join(work, `part-${index}.wav`);
        await mixAudioFiles({ stems: part.stems, output: mix, signal: request.signal, onProgress: pass(index * 2) });
        const output = join(work, `part-${index}.flac`);
        await masterAudioFile({
          input: mix,
          output,
          style: request.style,
          intensity: request.intensity,
          tmpDir: work,
          signal: request.signal,
          onProgress: pass(index * 2 + 1),
        });
        await rm(mix, { force: true });
        files.push({ name: part.name, path: output, contentType: 'audio/flac' });
      }
      const sumMix = join(work, 'sum.wav');
      await mixAudioFiles({
        stems: files.map((file) => ({ input: file.path, gainDb: 0 })),
        output: sumMix,
        signal: request.signal,
        onProgress: pass(request.parts.length * 2),
      });
      const sumOutput = join(work, 'sum.flac');
      const result = await masterAudioFile({
        input: sumMix,
        output: sumOutput,
        style: request.style,
        intensity: request.intensity,
        loudnessOnly: true,
        tmpDir: work,
        signal: request.signal,
        onProgress: pass(request.parts.length * 2 + 1),
      });
      files.push({ name: request.sum, path: sumOutput, contentType: 'audio/flac' });
      return { files, before: figures(result.before), after: figures(result.after), dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }
}
