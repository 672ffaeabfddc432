import { Inject, Injectable } from '@nestjs/common';
import { join } from 'node:path';
import type { AudioExportBody, ProjectExportBody } from '@stemdeck/proto';
import { PROJECT_DATA_WRITER, type ProjectDataWriter } from '../project-data/project-data.port';
import { AUDIO_RENDERER, type AudioRenderer } from './audio/audio-renderer';
import type { ExportDocument, PlannedAudioFile } from './export.schema';
import { safeSongName } from './file-names';
import { weightedProgress } from './weighted-progress';
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

/** Rendering is most of the work; the zip (a copy, disk to disk) the rest. */
const ZIP_SHARE = 0.1;
/** The weight of one file's render: a mix reads every stem. */
const renderWeight = (file: PlannedAudioFile) => (file.kind === 'mix' ? Math.max(1, file.stems.length) : 1);

/**
 * Builds an export's download in its scratch folder: audio files rendered one by one by the AudioRenderer
 * (its progress reported, weighted by how much each file reads), project data written by the
 * ProjectDataWriter; one file is the download itself, several are stored in one zip.
 */
@Injectable()
export class ExportBuilder {
  constructor(
    @Inject(AUDIO_RENDERER) private readonly renderer: AudioRenderer,
    @Inject(PROJECT_DATA_WRITER) private readonly projectData: Pick<ProjectDataWriter, 'write'>,
  ) {}

  build(doc: ExportDocument, dir: string, onProgress: (fraction: number) => void): Promise<BuiltExport> {
    return doc.kind === 'audio' ? this.buildAudio(doc, dir, onProgress) : this.buildProjectData(doc, dir, onProgress);
  }

  private async buildAudio(doc: ExportDocument, dir: string, onProgress: (fraction: number) => void): Promise<BuiltExport> {
    const zipped = doc.files.length > 1;
    const renders = doc.files.map(renderWeight);
    const renderTotal = renders.reduce((sum, weight) => sum + weight, 0);
    const step = weightedProgress(zipped ? [...renders, (renderTotal * ZIP_SHARE) / (1 - ZIP_SHARE)] : renders, onProgress);
    const { format } = doc.request as AudioExportBody;
    const entries: ZipEntry[] = [];
    for (const [index, file] of doc.files.entries()) {
      // Each render in its own numbered file: names inside the download may repeat a song's odd characters.
      const path = join(dir, `${index}-${file.name}`);
      if (file.kind === 'convert') await this.renderer.convert({ objectKey: file.objectKey }, format, doc.tags, path, step(index));
      else await this.renderer.mix(file.stems, format, doc.tags, path, step(index));
      step(index)(1);
      entries.push({ path, name: file.name });
    }
    if (!zipped) return { path: entries[0]!.path, filename: doc.filename, contentType: contentTypeOf(doc.filename) };
    const zipPath = join(dir, 'export.zip');
    await zipFiles(entries, zipPath);
    step(doc.files.length)(1);
    return { path: zipPath, filename: doc.filename, contentType: 'application/zip' };
  }

  private async buildProjectData(doc: ExportDocument, dir: string, onProgress: (fraction: number) => void): Promise<BuiltExport> {
    const step = weightedProgress([1 - ZIP_SHARE, ZIP_SHARE], onProgress);
    const filesDir = join(dir, 'files');
    const { formats } = doc.request as ProjectExportBody;
    const files = await this.projectData.write(doc.ownerId, doc.projectId, formats, filesDir, step(0));
    if (files.length === 0) throw new Error('the project data writer wrote no files');
    const song = safeSongName(doc.tags.title);
    if (files.length === 1 && !files[0]!.name.includes('/')) {
      const filename = `${song} - ${files[0]!.name}`;
      return { path: files[0]!.path, filename, contentType: contentTypeOf(filename) };
    }
    const zipPath = join(dir, 'export.zip');
    await zipFiles(files, zipPath);
    step(1)(1);
    return { path: zipPath, filename: doc.filename, contentType: 'application/zip' };
  }
}
