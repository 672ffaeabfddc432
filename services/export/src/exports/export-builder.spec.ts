import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportBuilder, inParallel, RenderStalled, watchedRender } from './export-builder';
import type { ExportDocument } from './export.schema';
import { FakeAudioRenderer, FakeProjectDataWriter } from './testing/fakes';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('inParallel', () => {
  it('runs every index with at most `limit` at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inParallel(7, 3, async (index) => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      done.push(index);
      running -= 1;
    });
    expect(most).toBe(3);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('after a failure starts nothing new, lets the running ones finish, then throws the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = inParallel(6, 2, async (index) => {
      started.push(index);
      if (index === 0) throw new Error('render 0 failed');
      await tick();
      finished.push(index);
    });
    await expect(run).rejects.toThrow('render 0 failed');
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([1]);
  });
});

describe('ExportBuilder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'export-builder-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('renders the files side by side and zips them in the planned order, progress rising to the end', async () => {
    const renderer = new FakeAudioRenderer();
    let running = 0;
    let most = 0;
    renderer.midway = async () => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    };
    const doc = {
      kind: 'audio',
      request: { projectId: 'p1', exportType: 'individual', format: 'flac', mastering: 'raw', stems: [] },
      files: ['vocals', 'drums', 'bass', 'other'].map((type) => ({ name: `Song - ${type}.flac`, kind: 'convert', objectKey: `stems/${type}.flac` })),
      tags: { title: 'Song', bpm: null, key: null },
      filename: 'Song - stems.zip',
    } as unknown as ExportDocument;
    const progress: number[] = [];
    const built = await new ExportBuilder(renderer, new FakeProjectDataWriter(), 2).build(doc, dir, (fraction) => progress.push(fraction));
    expect(most).toBe(2);
    expect(built).toEqual({ path: join(dir, 'export.zip'), filename: 'Song - stems.zip', contentType: 'application/zip' });
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });

  it.each([
    ['100 emoji', '🎵'.repeat(100)],
    ['100 CJK characters', '日本語の歌'.repeat(20)],
  ])('a song named with %s (300–400 bytes, over a file name\'s 255) renders to index-named files and zips under the song\'s names', async (_what, title) => {
    const renderer = new FakeAudioRenderer();
    const names = ['vocals', 'bass'].map((type) => `${title} - ${type}.flac`);
    expect(Buffer.byteLength(names[0]!, 'utf8')).toBeGreaterThan(255);
    const doc = {
      kind: 'audio',
      request: { projectId: 'p1', exportType: 'individual', format: 'flac', mastering: 'raw', stems: [] },
      files: names.map((name, index) => ({ name, kind: 'convert', objectKey: `stems/${index}.flac` })),
      tags: { title, bpm: null, key: null },
      filename: `${title} - stems.zip`,
    } as unknown as ExportDocument;
    const built = await new ExportBuilder(renderer, new FakeProjectDataWriter(), 2).build(doc, dir, () => undefined);
    expect(renderer.calls.map((call) => call.outPath)).toEqual([join(dir, '0.flac'), join(dir, '1.flac')]);
    expect(built).toEqual({ path: join(dir, 'export.zip'), filename: `${title} - stems.zip`, contentType: 'application/zip' });
    expect(execFileSync('unzip', ['-Z1', built.path]).toString().trim().split('\n')).toEqual(names);
    expect(execFileSync('unzip', ['-p', built.path, names[1]!]).toString()).toBe('convert stems/1.flac flac');
  });
});

describe('watchedRender', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets a render that keeps reporting progress run as long as it takes', async () => {
    const seen: number[] = [];
    const run = watchedRender('vocals.wav', 1000, (fraction) => seen.push(fraction), async (onProgress) => {
      for (let step = 1; step <= 5; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, 900));
        onProgress(step / 5);
      }
    });
    await jest.advanceTimersByTimeAsync(4500);
    await expect(run).resolves.toBeUndefined();
    expect(seen).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('fails a render whose progress stops, and drops what it reports afterwards', async () => {
    const seen: number[] = [];
    let report: (fraction: number) => void = () => undefined;
    const run = watchedRender('bass.wav', 1000, (fraction) => seen.push(fraction), (onProgress) => {
      report = onProgress;
      onProgress(0.1);
      return new Promise(() => undefined);
    });
    const failed = expect(run).rejects.toMatchObject({ name: 'RenderStalled', message: new RenderStalled('bass.wav', 1000).message });
    await jest.advanceTimersByTimeAsync(1000);
    await failed;
    report(0.9);
    expect(seen).toEqual([0.1]);
  });

  it("passes a render's own failure on", async () => {
    await expect(watchedRender('x', 1000, () => undefined, async () => Promise.reject(new Error('ffmpeg exited with 1')))).rejects.toThrow('ffmpeg exited with 1');
  });
});
