import { MemorySlotBoard } from '@stemdeck/platform';
import type { AudioExportBody } from '@stemdeck/proto';
import { CreateAudioExportUseCase, PROJECT_NOT_FOUND } from './create-audio-export.usecase';
import { NO_MASTER, STEMS_NOT_READY } from './export-plan';
import { ExportSlots } from './export-slots';
import { StartExport } from './start-export';
import { ENHANCED, FakePeers, perStemMaster, stemsOf } from './testing/fake-peers';
import { FakeClock, RecordingExportQueue, SequentialIds } from './testing/fakes';
import { InMemoryExports } from './testing/in-memory-exports';

describe('CreateAudioExportUseCase', () => {
  const NOW = Date.UTC(2026, 0, 2);
  let peers: FakePeers;
  let exports: InMemoryExports;
  let queue: RecordingExportQueue;
  let useCase: CreateAudioExportUseCase;
  const body = (changes: Partial<AudioExportBody> = {}): AudioExportBody => ({ projectId: 'p1', exportType: 'individual', format: 'wav-24-48', mastering: 'raw', stems: [], ...changes });

  beforeEach(() => {
    peers = new FakePeers();
    exports = new InMemoryExports();
    queue = new RecordingExportQueue();
    // A user's limit above what these specs start, so each export is handed to the queue at once (export-slots.spec sets 2).
    const slots = new ExportSlots(new MemorySlotBoard(), exports, queue, { EXPORTS_PER_USER: 10, EXPORT_SLOT_SWEEP_MS: 60_000 });
    const starter = new StartExport(exports, slots, { EXPORT_TTL_MINUTES: 60 }, new FakeClock(NOW), new SequentialIds('export'));
    useCase = new CreateAudioExportUseCase(peers, peers, starter);
  });

  it('stores a processing export with the files it will render (the objects they read, the mixer\'s state, the tags) and queues it by id', async () => {
    peers.add('u1', { id: 'p1', name: 'My/Song', bpm: 128, key: 'F minor' }, stemsOf('p1', { vocals: { volume: -6 }, bass: { muted: true, version: 'enhanced', enhanced: ENHANCED } }));
    const record = await useCase.execute('u1', body({ exportType: 'full-mix', format: 'flac' }));
    expect(record).toEqual({
      id: 'export-1',
      projectId: 'p1',
      kind: 'audio',
      status: 'processing',
      progress: 0,
      filename: 'My Song - full mix.flac',
      createdAt: '2026-01-02T00:00:00.000Z',
      expiresAt: '2026-01-02T01:00:00.000Z',
    });
    expect(exports.docs.get('export-1')).toMatchObject({
      ownerId: 'u1',
      request: { exportType: 'full-mix', format: 'flac' },
      tags: { title: 'My/Song', bpm: 128, key: 'F minor' },
      files: [
        {
          name: 'My Song - full mix.flac',
          kind: 'mix',
          stems: [
            { type: 'vocals', objectKey: 'stems/p1-vocals.flac', volume: -6, muted: false, soloed: false },
            { type: 'drums', objectKey: 'stems/p1-drums.flac', volume: 0, muted: false, soloed: false },
            // The version the mixer plays.
            { type: 'bass', objectKey: 'enhanced/p1-bass.flac', volume: 0, muted: true, soloed: false },
            { type: 'other', objectKey: 'stems/p1-other.flac', volume: 0, muted: false, soloed: false },
          ],
        },
      ],
    });
    expect(queue.queued).toEqual([{ exportId: 'export-1', message: { exportId: 'export-1', ownerId: 'u1' } }]);
    // Raw exports never ask the jobs service.
    expect(peers.mastersRead).toBe(0);
  });

  it('resolves a mastered stem export to the master\'s outputs and an enhanced one to the stems\' enhanced versions', async () => {
    peers.add('u1', { id: 'p1' }, stemsOf('p1', { drums: { enhanced: ENHANCED } }), [perStemMaster('m1')]);
    await useCase.execute('u1', body({ exportType: 'selected', mastering: 'both', stems: ['p1-drums'] }));
    expect(exports.docs.get('export-1')!.files).toEqual([
      { name: 'Song - drums (mastered).wav', kind: 'convert', objectKey: 'masters/m1/drums.flac' },
      { name: 'Song - drums (enhanced).wav', kind: 'convert', objectKey: 'enhanced/p1-drums.flac' },
    ]);
    expect(peers.stemObjectsAsked).toEqual([{ stemId: 'p1-drums', version: 'enhanced' }]);
  });

  it('answers 404 for another owner\'s or an unknown project, 409 before stems or masters exist, and stores and queues nothing', async () => {
    peers.add('u2', { id: 'p1' }, stemsOf('p1'));
    peers.add('u1', { id: 'fresh' });
    peers.add('u1', { id: 'p2' }, stemsOf('p2'));
    await expect(useCase.execute('u1', body())).rejects.toMatchObject({ status: 404, message: PROJECT_NOT_FOUND });
    await expect(useCase.execute('u1', body({ projectId: 'nowhere' }))).rejects.toMatchObject({ status: 404 });
    await expect(useCase.execute('u1', body({ projectId: 'fresh' }))).rejects.toMatchObject({ status: 409, message: STEMS_NOT_READY });
    await expect(useCase.execute('u1', body({ projectId: 'p2', mastering: 'landr', exportType: 'full-mix' }))).rejects.toMatchObject({ status: 409, message: NO_MASTER });
    await expect(useCase.execute('u1', body({ projectId: 'p2', exportType: 'selected', stems: ['p1-vocals'] }))).rejects.toMatchObject({ status: 400, message: 'stems.0: Not a stem of this project' });
    expect(exports.docs.size).toBe(0);
    expect(queue.queued).toEqual([]);
  });

  it('marks the export failed when it cannot be queued and answers 503 in plain words', async () => {
    peers.add('u1', { id: 'p1' }, stemsOf('p1'));
    queue.failure = new Error('no JetStream');
    await expect(useCase.execute('u1', body())).rejects.toMatchObject({ status: 503, message: expect.stringContaining('please try again') });
    expect(exports.docs.get('export-1')).toMatchObject({ status: 'failed', error: 'The export could not be queued', waiting: false });
  });
});
