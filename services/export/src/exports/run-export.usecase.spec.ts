import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkItem } from '@stemdeck/platform';
import type { ExportWorkMessage } from '@stemdeck/proto';
import { ExportBuilder } from './export-builder';
import { ExportRefused } from './export-refused';
import { toExportRecord } from './export-record';
import { ExportScratch } from './export-scratch';
import type { PlannedAudioFile } from './export.schema';
import type { NewExport } from './exports.ports';
import { AUDIO_EXPORT_FAILED, PROJECT_EXPORT_FAILED, RunExportUseCase } from './run-export.usecase';
import { FakeAudioRenderer, FakeClock, FakeProjectDataWriter, InMemoryExportStorage } from './testing/fakes';
import { InMemoryExports } from './testing/in-memory-exports';

const PREFIX = 'users/u1/projects/p1/exports/e1/';
const item = (deliveryCount = 1): WorkItem<ExportWorkMessage> & { beats: number } => {
  const work = { payload: { exportId: 'e1', ownerId: 'u1' }, deliveryCount, isLastAttempt: false, beats: 0, heartbeat: () => (work.beats += 1) };
  return work;
};
const stemFile = (type: string): PlannedAudioFile => ({ name: `Song - ${type}.wav`, kind: 'convert', objectKey: `stems/${type}.flac` });

/** Names and sizes of a zip's entries, as unzip lists them, and whether they are stored (not deflated). */
function zipListing(path: string): Array<{ name: string; method: string }> {
  const lines = execFileSync('unzip', ['-v', path]).toString().split('\n');
  return lines
    .map((line) => /^\s*\d+\s+(\w+)\s+\d+\s+\S+\s+\S+\s+\S+\s+\S+\s+(.+)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ method: match[1]!, name: match[2]! }));
}

describe('RunExportUseCase', () => {
  const NOW = Date.UTC(2026, 0, 2);
  let workDir: string;
  let exports: InMemoryExports;
  let storage: InMemoryExportStorage;
  let renderer: FakeAudioRenderer;
  let writer: FakeProjectDataWriter;
  let progress: number[];
  let useCase: RunExportUseCase;

  const newExport = (changes: Partial<NewExport> = {}): NewExport => ({
    _id: 'e1',
    ownerId: 'u1',
    projectId: 'p1',
    kind: 'audio',
    request: { projectId: 'p1', exportType: 'individual', format: 'wav-24-48', mastering: 'raw', stems: [] },
    files: ['vocals', 'drums', 'bass', 'other'].map(stemFile),
    tags: { title: 'Song', bpm: 120, key: 'A minor' },
    filename: 'Song - stems.zip',
    createdAt: new Date(NOW),
    expiresAt: new Date(NOW + 60_000),
    ...changes,
  });

  beforeEach(() => {
    workDir = mkdtempSync(join(tmpdir(), 'export-run-'));
    exports = new InMemoryExports();
    storage = new InMemoryExportStorage();
    renderer = new FakeAudioRenderer();
    writer = new FakeProjectDataWriter();
    progress = [];
    const setProgress = exports.setProgress.bind(exports);
    exports.setProgress = (ownerId, exportId, value) => {
      progress.push(value);
      return setProgress(ownerId, exportId, value);
    };
    // Every clock reading moves a second, so each progress report is stored.
    useCase = new RunExportUseCase(exports, storage, { EXPORT_MAX_DELIVER: 3, EXPORT_TTL_MINUTES: 30 }, new FakeClock(NOW, 1000), new ExportBuilder(renderer, writer, 1), new ExportScratch(workDir));
  });

  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  it('renders every file, stores them in one zip (stored, not deflated) in the export\'s folder, completes it with its expiry, and acknowledges', async () => {
    await exports.createRunning(newExport());
    let zipListed: Array<{ name: string; method: string }> = [];
    const putFile = storage.putFile.bind(storage);
    storage.putFile = async (key, path, contentType) => {
      zipListed = zipListing(path);
      return putFile(key, path, contentType);
    };
    const work = item();
    await expect(useCase.execute(work)).resolves.toBe('done');
    expect(renderer.calls.map((call) => call.kind === 'convert' && call.objectKey)).toEqual(['stems/vocals.flac', 'stems/drums.flac', 'stems/bass.flac', 'stems/other.flac']);
    expect(renderer.calls.every((call) => call.format === 'wav-24-48' && call.tags.title === 'Song' && call.tags.bpm === 120 && call.tags.key === 'A minor')).toBe(true);
    expect(zipListed).toEqual(['vocals', 'drums', 'bass', 'other'].map((type) => ({ name: `Song - ${type}.wav`, method: 'Stored' })));
    expect(storage.objects.get(`${PREFIX}export.zip`)).toMatchObject({ contentType: 'application/zip' });
    expect(storage.keys()).toEqual([`${PREFIX}export.zip`]);
    // Object keys stay plain ASCII whatever the song is called; the song's name is the download's.
    expect(storage.keys().every((key) => /^[\x21-\x7e]+$/.test(key))).toBe(true);
    expect(exports.docs.get('e1')).toMatchObject({
      filename: 'Song - stems.zip',
      status: 'completed',
      progress: 100,
      attempts: 1,
      objectKey: `${PREFIX}export.zip`,
      contentType: 'application/zip',
    });
    const { completedAt, expiresAt } = exports.docs.get('e1')!;
    expect(expiresAt.getTime() - completedAt!.getTime()).toBe(30 * 60_000);
    // Real progress, rising, weighted by the renders, never 100 before completion.
    expect(progress.length).toBeGreaterThan(4);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(Math.max(...progress)).toBeLessThan(100);
    expect(work.beats).toBeGreaterThan(0);
    // The scratch folder is gone.
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('uploads a single file as itself, with its format\'s content type; a mix is rendered from its stems', async () => {
    const stems = [{ type: 'vocals' as const, objectKey: 'stems/vocals.flac', volume: -6, muted: false, soloed: false }];
    await exports.createRunning(newExport({ files: [{ name: 'Song - full mix.mp3', kind: 'mix', stems }], filename: 'Song - full mix.mp3' }));
    await expect(useCase.execute(item())).resolves.toBe('done');
    expect(renderer.calls).toMatchObject([{ kind: 'mix', stems }]);
    expect(storage.keys()).toEqual([`${PREFIX}export.mp3`]);
    expect(storage.objects.get(`${PREFIX}export.mp3`)!.contentType).toBe('audio/mpeg');
  });

  it('project data: several files in one zip with their folders; a single file downloads as itself, named after the song', async () => {
    await exports.createRunning(newExport({ kind: 'project', request: { projectId: 'p1', formats: ['touchdesigner', 'resolume'] }, files: [], filename: 'Song - project data.zip' }));
    let listed: string[] = [];
    const putFile = storage.putFile.bind(storage);
    storage.putFile = async (key, path, contentType) => {
      listed = zipListing(path).map((entry) => entry.name);
      return putFile(key, path, contentType);
    };
    await expect(useCase.execute(item())).resolves.toBe('done');
    expect(listed).toEqual(['touchdesigner/beats.csv', 'touchdesigner/osc.json', 'resolume.json']);
    expect(exports.docs.get('e1')).toMatchObject({ status: 'completed', filename: 'Song - project data.zip' });

    exports.docs.clear();
    storage.objects.clear();
    storage.putFile = putFile;
    await exports.createRunning(newExport({ kind: 'project', request: { projectId: 'p1', formats: ['spotifyJson'] }, files: [], filename: 'Song - project data.zip' }));
    await expect(useCase.execute(item())).resolves.toBe('done');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'completed', filename: 'Song - spotifyJson.json', contentType: 'application/json' });
    expect(storage.keys()).toEqual([`${PREFIX}export.json`]);
  });

  it('retries a failed attempt (nothing kept), and on the last one fails it with words for users: no objects, no scratch files', async () => {
    await exports.createRunning(newExport());
    renderer.failOn = 'stems/bass.flac';
    await expect(useCase.execute(item(1))).resolves.toBe('retry');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'processing' });
    await expect(useCase.execute(item(3))).resolves.toBe('give-up');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'failed', error: AUDIO_EXPORT_FAILED, attempts: 2 });
    expect(storage.keys()).toEqual([]);
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('a failed upload leaves no object behind', async () => {
    await exports.createRunning(newExport({ kind: 'project', request: { projectId: 'p1', formats: ['resolume', 'spotifyJson'] }, files: [] }));
    storage.objects.set(`${PREFIX}half-written`, { path: '/nowhere', contentType: 'application/zip' });
    storage.failure = new Error('S3 is down');
    await expect(useCase.execute(item(3))).resolves.toBe('give-up');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'failed', error: PROJECT_EXPORT_FAILED });
    expect(storage.keys()).toEqual([]);
    // The upload's own key is discarded too (an incomplete multipart upload would not show among the objects).
    expect(storage.discarded).toEqual([`${PREFIX}export.zip`]);
  });

  it('a refusal met while building fails it at once with its own words', async () => {
    await exports.createRunning(newExport({ kind: 'project', request: { projectId: 'p1', formats: ['spotifyJson'] }, files: [] }));
    writer.write = async () => {
      throw new ExportRefused(409, 'This project has no analysis yet');
    };
    await expect(useCase.execute(item(1))).resolves.toBe('give-up');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'failed', error: 'This project has no analysis yet', errorStatus: 409, attempts: 1 });
    // What the gateway reads: the refusal's own words and status, not a generic failure.
    expect(toExportRecord(exports.docs.get('e1')!)).toMatchObject({ status: 'failed', error: 'This project has no analysis yet', errorStatus: 409 });
  });

  it('an ordinary failure is stored without a status of its own (the gateway answers 500)', async () => {
    await exports.createRunning(newExport());
    renderer.failOn = 'stems/bass.flac';
    await expect(useCase.execute(item(3))).resolves.toBe('give-up');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'failed', error: AUDIO_EXPORT_FAILED, errorStatus: null });
    expect(toExportRecord(exports.docs.get('e1')!)).not.toHaveProperty('errorStatus');
  });

  /** Another delivery (this one outlived its ack wait) completes the export with its file at `${PREFIX}export.zip`. */
  const completeByAnotherDelivery = async () => {
    storage.objects.set(`${PREFIX}export.zip`, { path: '/other-delivery/export.zip', contentType: 'application/zip' });
    await exports.complete('u1', 'e1', { filename: 'Song - stems.zip', objectKey: `${PREFIX}export.zip`, contentType: 'application/zip', completedAt: new Date(NOW), expiresAt: new Date(NOW + 60_000) });
  };

  it('an export another delivery completed while this one uploaded keeps its file (complete() finding it no longer processing is not a deletion)', async () => {
    await exports.createRunning(newExport());
    storage.onPut = completeByAnotherDelivery;
    await expect(useCase.execute(item(2))).resolves.toBe('done');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'completed', objectKey: `${PREFIX}export.zip` });
    expect(storage.keys()).toEqual([`${PREFIX}export.zip`]);
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('an export another delivery completed while this one rendered keeps its file', async () => {
    await exports.createRunning(newExport());
    renderer.midway = completeByAnotherDelivery;
    await expect(useCase.execute(item(2))).resolves.toBe('done');
    expect(storage.keys()).toEqual([`${PREFIX}export.zip`]);
    expect(exports.docs.get('e1')).toMatchObject({ status: 'completed' });
  });

  it('an attempt that fails after another delivery completed the export leaves that file in place', async () => {
    await exports.createRunning(newExport());
    renderer.failOn = 'stems/bass.flac';
    renderer.midway = completeByAnotherDelivery;
    await expect(useCase.execute(item(1))).resolves.toBe('done');
    expect(storage.keys()).toEqual([`${PREFIX}export.zip`]);
    expect(exports.docs.get('e1')).toMatchObject({ status: 'completed' });
  });

  it('a redelivery after a crash builds it again and completes it; one beyond every attempt fails it without running', async () => {
    await exports.createRunning(newExport());
    await expect(useCase.execute(item(2))).resolves.toBe('done');
    expect(exports.docs.get('e1')).toMatchObject({ status: 'completed' });
    // Already done: acknowledged without work.
    renderer.calls.length = 0;
    await expect(useCase.execute(item(3))).resolves.toBe('done');
    expect(renderer.calls).toEqual([]);

    exports.docs.clear();
    storage.objects.clear();
    await exports.createRunning(newExport());
    await expect(useCase.execute(item(4))).resolves.toBe('give-up');
    expect(renderer.calls).toEqual([]);
    expect(exports.docs.get('e1')).toMatchObject({ status: 'failed', error: AUDIO_EXPORT_FAILED });
  });

  it('an export deleted meanwhile (its project deleted) stops, keeps nothing and is acknowledged; a missing one is given up', async () => {
    await exports.createRunning(newExport());
    renderer.midway = () => {
      exports.docs.delete('e1');
    };
    const uploads: string[] = [];
    storage.onPut = (key) => void uploads.push(key);
    await expect(useCase.execute(item())).resolves.toBe('done');
    // The progress write after the deletion found it gone, so nothing was uploaded at all.
    expect(uploads).toEqual([]);
    expect(storage.keys()).toEqual([]);
    expect(readdirSync(workDir)).toEqual([]);
    await expect(useCase.execute(item())).resolves.toBe('give-up');
  });

  it('a slow progress write that finds the export deleted stops it before the upload, though the render ended meanwhile', async () => {
    await exports.createRunning(newExport());
    const setProgress = exports.setProgress;
    exports.setProgress = async (ownerId, exportId, value) => {
      if (value < 90) return setProgress(ownerId, exportId, value);
      exports.docs.delete('e1');
      await new Promise((resolve) => setTimeout(resolve, 50));
      return setProgress(ownerId, exportId, value);
    };
    const uploads: string[] = [];
    storage.onPut = (key) => void uploads.push(key);
    await expect(useCase.execute(item())).resolves.toBe('done');
    expect(uploads).toEqual([]);
    expect(storage.keys()).toEqual([]);
  });

  it('an export deleted while its file was uploading leaves no object', async () => {
    await exports.createRunning(newExport());
    storage.onPut = () => {
      exports.docs.delete('e1');
    };
    await expect(useCase.execute(item())).resolves.toBe('done');
    expect(storage.keys()).toEqual([]);
    expect(existsSync(workDir) && readdirSync(workDir)).toEqual([]);
  });

  it('writes the renders\' text where the zip says (a sanity check of the fake)', async () => {
    await exports.createRunning(newExport({ files: [stemFile('vocals')], filename: 'Song - vocals.wav' }));
    let text = '';
    const putFile = storage.putFile.bind(storage);
    storage.putFile = async (key, path, contentType) => {
      text = readFileSync(path, 'utf8');
      return putFile(key, path, contentType);
    };
    await useCase.execute(item());
    expect(text).toBe('convert stems/vocals.flac wav-24-48');
  });
});
