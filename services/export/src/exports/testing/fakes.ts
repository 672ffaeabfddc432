import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Clock, IdGenerator } from '@stemdeck/platform';
import type { AudioExportFormat, ExportWorkMessage, ProjectExportFormat } from '@stemdeck/proto';
import type { ProjectDataFile, ProjectDataWriter } from '../../project-data/project-data.port';
import type { AudioRenderer, AudioTags, RenderProgress, RenderStem } from '../audio/audio-renderer';
import type { ExportQueue, ExportStorage } from '../exports.ports';

/** A clock that moves only when told to, or by `stepMs` on every reading. */
export class FakeClock implements Clock {
  constructor(
    private time = 0,
    private readonly stepMs = 0,
  ) {}

  now(): number {
    const time = this.time;
    this.time += this.stepMs;
    return time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

/** Ids `<prefix>-1`, `<prefix>-2`, … in the order they are asked for. */
export class SequentialIds implements IdGenerator {
  private issued = 0;

  constructor(private readonly prefix = 'id') {}

  randomUUID(): string {
    return `${this.prefix}-${++this.issued}`;
  }
}

/** The export queue as a list; set `failure` to have publishing reject with it. */
export class RecordingExportQueue implements ExportQueue {
  readonly queued: Array<{ exportId: string; message: ExportWorkMessage }> = [];
  failure?: Error;

  async publish(exportId: string, message: ExportWorkMessage): Promise<void> {
    if (this.failure) throw this.failure;
    this.queued.push({ exportId, message });
  }
}

/** Object keys with the local file each came from; `failure` makes uploads reject. */
export class InMemoryExportStorage implements ExportStorage {
  readonly objects = new Map<string, { path: string; contentType: string }>();
  failure?: Error;
  /** Called as an upload starts (a test can delete the export at that moment). */
  onPut?: (key: string) => Promise<void> | void;

  async putFile(key: string, path: string, contentType: string): Promise<void> {
    await this.onPut?.(key);
    if (this.failure) throw this.failure;
    this.objects.set(key, { path, contentType });
  }

  async removePrefix(prefix: string): Promise<void> {
    for (const key of [...this.objects.keys()]) if (key.startsWith(prefix)) this.objects.delete(key);
  }

  readonly discarded: string[] = [];

  async discard(key: string): Promise<void> {
    this.discarded.push(key);
    this.objects.delete(key);
  }

  keys(): string[] {
    return [...this.objects.keys()];
  }
}

export type RenderCall = { kind: 'convert'; objectKey: string; format: AudioExportFormat; tags: AudioTags; outPath: string } | { kind: 'mix'; stems: readonly RenderStem[]; format: AudioExportFormat; tags: AudioTags; outPath: string };

/**
 * Writes a small text file saying what it rendered, reporting progress at a quarter, half and the end;
 * `failOn` makes a render whose source (or first stem) has that key reject, after writing half a file.
 */
export class FakeAudioRenderer implements AudioRenderer {
  readonly calls: RenderCall[] = [];
  failOn?: string;
  /** Called between the progress reports (a test can delete the export then). */
  midway?: () => Promise<void> | void;

  async convert(source: { objectKey: string }, format: AudioExportFormat, tags: AudioTags, outPath: string, onProgress?: RenderProgress): Promise<void> {
    this.calls.push({ kind: 'convert', objectKey: source.objectKey, format, tags, outPath });
    await this.render(source.objectKey, `convert ${source.objectKey} ${format}`, outPath, onProgress);
  }

  async mix(stems: readonly RenderStem[], format: AudioExportFormat, tags: AudioTags, outPath: string, onProgress?: RenderProgress): Promise<void> {
    this.calls.push({ kind: 'mix', stems, format, tags, outPath });
    await this.render(stems[0]?.objectKey ?? '', `mix ${stems.map((stem) => `${stem.objectKey}@${stem.volume}`).join(' ')} ${format}`, outPath, onProgress);
  }

  private async render(key: string, text: string, outPath: string, onProgress?: RenderProgress): Promise<void> {
    onProgress?.(0.25);
    await this.midway?.();
    onProgress?.(0.5);
    if (this.failOn === key) {
      await writeFile(outPath, 'half');
      throw new Error(`ffmpeg exited 1: ${key} could not be decoded`);
    }
    await writeFile(outPath, text);
    onProgress?.(1);
  }
}

/** Writes one small file per format (`touchdesigner` two, in a folder); `refusal` makes `check` throw it. */
export class FakeProjectDataWriter implements ProjectDataWriter {
  refusal?: Error;
  readonly checked: ProjectExportFormat[][] = [];

  async check(_ownerId: string, _projectId: string, formats: readonly ProjectExportFormat[]): Promise<void> {
    this.checked.push([...formats]);
    if (this.refusal) throw this.refusal;
  }

  async write(_ownerId: string, projectId: string, formats: readonly ProjectExportFormat[], dir: string, onProgress?: (fraction: number) => void): Promise<ProjectDataFile[]> {
    const names = formats.flatMap((format) => (format === 'touchdesigner' ? ['touchdesigner/beats.csv', 'touchdesigner/osc.json'] : [`${format}.json`]));
    const files: ProjectDataFile[] = [];
    for (const name of names) {
      const path = join(dir, name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, JSON.stringify({ projectId, name }));
      files.push({ name, path });
      onProgress?.(files.length / names.length);
    }
    return files;
  }
}
