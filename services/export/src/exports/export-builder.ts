import { Inject, Injectable, Optional } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { weightedProgress } from '@stemdeck/platform';
import type { AudioExportBody, ProjectExportBody } from '@stemdeck/proto';
import { PROJECT_DATA_WRITER, type ProjectDataWriter } from '../project-data/project-data.port';
import { AUDIO_RENDERER, type AudioRenderer } from './audio/audio-renderer';
import type { ExportDocument, PlannedAudioFile } from './export.schema';
import { safeSongName } from './file-names';
import { zipFiles, type ZipEntry } from './zip-files';

/** The file an export uploads: where it was built, the name it is downloaded as, its content type. */
export interface BuiltExport {
  path: string;
  filename: string;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  zip: 'application/zip',
  json: 'application/json',
  csv: 'text/csv',
  txt: 'text/plain',
  toe: 'application/octet-stream',
  xml: 'application/xml',
};
export const contentTypeOf = (filename: string): string => CONTENT_TYPES[filename.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** How many renders an export runs at once (bound only by specs and benchmarks; one per core otherwise). */
export const PARALLEL_RENDERS = Symbol('ParallelRenders');

/**
 * Runs `work(0…count-1)` with at most `limit` at a time. After a failure no new work starts; it waits for the
 * running ones to settle (so nothing still writes into a folder about to be removed) and rethrows the first failure.
 */
export async function inParallel(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < count) {
      const index = next++;
      try {
        await work(index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
  if (failure) throw failure.error;
}

/** A render that reports no progress for this long is given up: a stalled read must not hold the export queue forever. */
export const RENDER_STALL_MS = 2 * 60_000;
export const RENDER_STALL = Symbol('RenderStallMs');

/** A render whose progress stopped (its ffmpeg is left to end on its own; the attempt fails and is retried). */
export class RenderStalled extends Error {
  constructor(name: string, stallMs: number) {
    super(`rendering ${name} reported no progress for ${Math.round(stallMs / 1000)} s`);
    this.name = 'RenderStalled';
  }
}

/**
 * Runs one render with a stall watch: it fails with RenderStalled when `render` reports no progress for
 * `stallMs`. Progress reported after it ended (failed, stalled or done) is dropped.
 */
export function watchedRender(name: string, stallMs: number, onProgress: (fraction: number) => void, render: (onProgress: (fraction: number) => void) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(() => reject(new RenderStalled(name, stallMs))), stallMs);
    };
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle();
    };
    arm();
    render((fraction) => {
      if (settled) return;
      arm();
      onProgress(fraction);
    }).then(
      () => finish(resolve),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** Rendering is most of the work; the zip (a copy, disk to disk) the rest. */
const ZIP_SHARE = 0.1;
/** The weight of one file's render: a mix reads every stem. */
const renderWeight = (file: PlannedAudioFile) => (file.kind === 'mix' ? Math.max(1, file.stems.length) : 1);

/**
 * Builds an export's download in its scratch folder: audio files rendered by the AudioRenderer, one per core
 * at a time (its progress reported, weighted by how much each file reads; a render whose progress stops for
 * RENDER_STALL_MS fails the attempt, which is retried), project data written by the
 * ProjectDataWriter; one file is the download itself, several are stored in one zip.
 */
@Injectable()
export class ExportBuilder {
  constructor(
    @Inject(AUDIO_RENDERER) private readonly renderer: AudioRenderer,
    @Inject(PROJECT_DATA_WRITER) private readonly projectData: Pick<ProjectDataWriter, 'write'>,
    /** Renders at once: one ffmpeg per core (an encode is CPU-bound; the queue hands a worker one export at a time). */
    @Optional() @Inject(PARALLEL_RENDERS) private readonly parallelRenders: number = availableParallelism(),
    @Optional() @Inject(RENDER_STALL) private readonly stallMs: number = RENDER_STALL_MS,
  ) {}

  build(doc: ExportDocument, dir: string, onProgress: (fraction: number) => void): Promise<BuiltExport> {
    return doc.kind === 'audio' ? this.buildAudio(doc, dir, onProgress) : this.buildProjectData(doc, dir, onProgress);
  }

  private async buildAudio(doc: ExportDocument, dir: string, onProgress: (fraction: number) => void): Promise<BuiltExport> {
    const zipped = doc.files.length > 1;
    const renders = doc.files.map(renderWeight);
    const renderTotal = renders.reduce((sum, weight) => sum + weight, 0);
    const part = weightedProgress(zipped ? [...renders, (renderTotal * ZIP_SHARE) / (1 - ZIP_SHARE)] : renders, onProgress);
    const { format } = doc.request as AudioExportBody;
    // Each render in a file named by its index alone: the song's name (odd characters, up to 255 bytes with the
    // rest of the name) goes only into the zip entry and the download's name, never into a path on disk.
    const entries: ZipEntry[] = doc.files.map((file, index) => ({ path: join(dir, `${index}${extname(file.name)}`), name: file.name }));
    await inParallel(doc.files.length, this.parallelRenders, async (index) => {
      const file = doc.files[index]!;
      const { path } = entries[index]!;
      await watchedRender(file.name, this.stallMs, part(index), (onProgress) =>
        file.kind === 'convert'
          ? this.renderer.convert({ objectKey: file.objectKey }, format, doc.tags, path, onProgress)
          : this.renderer.mix(file.stems, format, doc.tags, path, onProgress),
      );
      part(index)(1);
    });
    if (!zipped) return { path: entries[0]!.path, filename: doc.filename, contentType: contentTypeOf(doc.filename) };
    const zipPath = join(dir, 'export.zip');
    await zipFiles(entries, zipPath);
    part(doc.files.length)(1);
    return { path: zipPath, filename: doc.filename, contentType: 'application/zip' };
  }

  private async buildProjectData(doc: ExportDocument, dir: string, onProgress: (fraction: number) => void): Promise<BuiltExport> {
    const part = weightedProgress([1 - ZIP_SHARE, ZIP_SHARE], onProgress);
    const filesDir = join(dir, 'files');
    const { formats } = doc.request as ProjectExportBody;
    const files = await this.projectData.write(doc.ownerId, doc.projectId, formats, filesDir, part(0));
    if (files.length === 0) throw new Error('the project data writer wrote no files');
    const song = safeSongName(doc.tags.title);
    if (files.length === 1 && !files[0]!.name.includes('/')) {
      const filename = `${song} - ${files[0]!.name}`;
      return { path: files[0]!.path, filename, contentType: contentTypeOf(filename) };
    }
    const zipPath = join(dir, 'export.zip');
    await zipFiles(files, zipPath);
    part(1)(1);
    return { path: zipPath, filename: doc.filename, contentType: 'application/zip' };
  }
}
