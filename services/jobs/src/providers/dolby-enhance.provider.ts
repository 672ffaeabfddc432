import { measureR128, mixAudioFiles } from '@stemdeck/audio';
import type { EnhanceParameters } from '@stemdeck/proto';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EnhancedFile, EnhanceProvider, EnhanceStemRequest } from '../jobs/jobs.ports';
import { loudnessFigures } from '../mastering/loudness-figures';
import type { JobScratch } from '../scratch/job-scratch';
import type { DolbyMediaClient } from './dolby-media.client';

const run = promisify(execFile);

/** Shares of the progress bar: fetching the stem here, Dolby's job, encoding its answer as FLAC. */
const FETCH_SHARE = 0.1;
const ENCODE_SHARE = 0.05;

/** Our loudness normalisation target, asked of Dolby too so both providers deliver the same level. */
const TARGET_LUFS = -16;
const PEAK_LIMIT_DBTP = -1;

/**
 * Our three toggles as /media/enhance options (https://docs.dolby.io/media-apis/reference/media-enhance-post):
 * content.type tells Dolby what it is cleaning (a song's stem is `music`; speech enhancement asks for a voice
 * treatment), audio.noise.reduction the denoiser, audio.loudness the level (our −16 LUFS, −1 dB peak), and the
 * speech treatment its high-pass, dynamic EQ and sibilance reduction. Every switch is sent, on or off, so
 * Dolby's own defaults (several are on by default) never change what the user chose.
 */
export function dolbyEnhanceOptions(enhancements: EnhanceParameters['enhancements']): Record<string, unknown> {
  const speech = enhancements.speechEnhancement;
  return {
    content: { type: speech ? 'voice_over' : 'music' },
    audio: {
      noise: { reduction: { enable: enhancements.noiseReduction } },
      loudness: { enable: enhancements.loudnessNormalization, target_level: TARGET_LUFS, peak_limit: PEAK_LIMIT_DBTP },
      filter: { high_pass: { enable: speech }, dynamic_eq: { enable: speech } },
      speech: { sibilance: { reduction: { enable: speech } } },
      dynamics: { range_control: { enable: speech } },
    },
  };
}

/**
 * Dolby.io behind the EnhanceProvider port: the stem is fetched here as a WAV, enhanced by Dolby (upload,
 * submit, poll, download: DolbyMediaClient), and its answer encoded as 24-bit FLAC like every stem version;
 * before/after are measured here with ffmpeg's ebur128 so the figures mean what the local engine's mean.
 */
export class DolbyEnhanceProvider implements EnhanceProvider {
  readonly name = 'dolby' as const;

  constructor(
    private readonly client: Pick<DolbyMediaClient, 'enhance'>,
    private readonly scratch: JobScratch,
    private readonly ffmpeg = 'ffmpeg',
  ) {}

  async enhanceStem(request: EnhanceStemRequest): Promise<EnhancedFile> {
    const { dir, dispose } = await this.scratch.create('dolby');
    const { signal, onProgress } = request;
    try {
      const input = join(dir, 'stem.wav');
      await mixAudioFiles({ stems: [{ input: request.input, gainDb: 0 }], output: input, signal, onProgress: (f) => onProgress(f * FETCH_SHARE) });
      const before = loudnessFigures(await measureR128(input, { signal }));
      const answer = join(dir, 'dolby.wav');
      await this.client.enhance({
        inputPath: input,
        outputPath: answer,
        options: dolbyEnhanceOptions(request.enhancements),
        signal,
        onProgress: (f) => onProgress(FETCH_SHARE + f * (1 - FETCH_SHARE - ENCODE_SHARE)),
      });
      const output = join(dir, 'enhanced.flac');
      await run(this.ffmpeg, ['-v', 'error', '-nostdin', '-y', '-i', answer, '-map', '0:a:0', '-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24', output], { signal });
      const after = loudnessFigures(await measureR128(output, { signal }));
      onProgress(1);
      return { path: output, contentType: 'audio/flac', before, after, dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }
}
