import { measureR128, mixAudioFiles } from '@stemdeck/audio';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { MasteredFile, MasteredSet, MasteringProvider, MasterMixRequest, MasterSetRequest } from '../jobs/jobs.ports';
import { loudnessFigures as figures } from '../mastering/loudness-figures';
import type { JobScratch } from '../scratch/job-scratch';

/** What a cloud client does: master one local file into another, reporting 0–1 progress. */
export interface CloudMaster {
  master(input: { inputPath: string; outputPath: string; style: MasterMixRequest['style']; intensity: 1 | 2 | 3; onProgress(f: number): void; signal: AbortSignal }): Promise<void>;
}

/** Share of the progress bar for summing the stems locally before upload. */
const MIX_SHARE = 0.1;

/**
 * A cloud provider behind the MasteringProvider port: the stems are summed here at their mixer gains (a cloud
 * service masters one file), the sum uploaded and mastered there, and before/after measured here with ffmpeg's
 * ebur128 so the figures mean the same as the local engine's. masterSet masters each part and their sum.
 */
export class CloudMasteringProvider implements MasteringProvider {
  constructor(
    readonly name: 'landr' | 'dolby',
    private readonly client: CloudMaster,
    private readonly scratch: JobScratch,
    private readonly extension = 'wav',
  ) {}

  async masterMix(request: MasterMixRequest): Promise<MasteredFile> {
    const { dir: work, dispose } = await this.scratch.create(this.name);
    try {
      const one = await this.masterOne(work, 'master', request.stems, request, (f) => request.onProgress(f));
      return { path: one.path, contentType: this.contentType(), before: one.before, after: one.after, dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  async masterSet(request: MasterSetRequest): Promise<MasteredSet> {
    const { dir: work, dispose } = await this.scratch.create(this.name);
    const share = 1 / (request.parts.length + 1);
    try {
      const files: MasteredSet['files'] = [];
      for (const [index, part] of request.parts.entries()) {
        const one = await this.masterOne(work, `part-${index}`, part.stems, request, (f) => request.onProgress((index + f) * share));
        files.push({ name: part.name, path: one.path, contentType: this.contentType() });
      }
      const sumStems = files.map((file) => ({ input: file.path, gainDb: 0 }));
      const sum = await this.masterOne(work, 'sum', sumStems, request, (f) => request.onProgress((request.parts.length + f) * share));
      files.push({ name: request.sum, path: sum.path, contentType: this.contentType() });
      return { files, before: sum.before, after: sum.after, dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  private async masterOne(
    work: string,
    name: string,
    stems: Array<{ input: string; gainDb: number }>,
    request: { style: MasterMixRequest['style']; intensity: 1 | 2 | 3; signal: AbortSignal },
    onProgress: (f: number) => void,
  ) {
    const mix = join(work, `${name}-mix.wav`);
    await mixAudioFiles({ stems, output: mix, signal: request.signal, onProgress: (f) => onProgress(f * MIX_SHARE) });
    const before = figures(await measureR128(mix, { signal: request.signal }));
    const path = join(work, `${name}.${this.extension}`);
    await this.client.master({
      inputPath: mix,
      outputPath: path,
      style: request.style,
      intensity: request.intensity,
      signal: request.signal,
      onProgress: (f) => onProgress(MIX_SHARE + f * (1 - MIX_SHARE)),
    });
    await rm(mix, { force: true });
    const after = figures(await measureR128(path, { signal: request.signal }));
    return { path, before, after };
  }

  private contentType() {
    return this.extension === 'flac' ? 'audio/flac' : this.extension === 'mp3' ? 'audio/mpeg' : 'audio/wav';
  }
}
