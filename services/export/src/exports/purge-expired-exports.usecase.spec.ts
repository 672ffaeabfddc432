import { EXPIRED_RECORD_KEEP_MS, PurgeExpiredExportsUseCase, PURGE_BATCH, STUCK_EXPORT_MIN_MS, stuckAfterMs } from './purge-expired-exports.usecase';
import { AUDIO_EXPORT_FAILED } from './run-export.usecase';
import type { NewExport } from './exports.ports';
import { FakeClock, InMemoryExportStorage } from './testing/fakes';
import { InMemoryExports } from './testing/in-memory-exports';

describe('PurgeExpiredExportsUseCase', () => {
  const NOW = Date.UTC(2026, 5, 1);
  let exports: InMemoryExports;
  let storage: InMemoryExportStorage;
  let clock: FakeClock;
  let purge: PurgeExpiredExportsUseCase;
  const prefix = (id: string) => `users/u1/projects/p1/exports/${id}/`;

  /** A completed export expiring at `expiresAt`, its file stored. */
  async function completed(id: string, expiresAt: number): Promise<void> {
    const doc: NewExport = {
      _id: id,
      ownerId: 'u1',
      projectId: 'p1',
      kind: 'audio',
      request: { projectId: 'p1', exportType: 'full-mix', format: 'flac', mastering: 'raw', stems: [] },
      files: [],
      tags: { title: 'Song', bpm: null, key: null },
      filename: 'Song - full mix.flac',
      createdAt: new Date(expiresAt - 1000),
      expiresAt: new Date(expiresAt),
    };
    await exports.createRunning(doc);
    await exports.complete('u1', id, { filename: doc.filename, objectKey: `${prefix(id)}${doc.filename}`, contentType: 'audio/flac', completedAt: doc.createdAt, expiresAt: doc.expiresAt });
    await storage.putFile(`${prefix(id)}${doc.filename}`, '/tmp/x', 'audio/flac');
  }

  beforeEach(() => {
    exports = new InMemoryExports();
    storage = new InMemoryExportStorage();
    clock = new FakeClock(NOW);
    purge = new PurgeExpiredExportsUseCase(exports, storage, clock, { EXPORT_ACK_WAIT_MS: 30_000, EXPORT_MAX_DELIVER: 3 });
  });

  it('removes the files of expired exports and marks them purged; unexpired ones keep theirs', async () => {
    await completed('old', NOW - 1);
    await completed('fresh', NOW + 60_000);
    await expect(purge.execute()).resolves.toBe(1);
    expect(storage.keys()).toEqual([`${prefix('fresh')}Song - full mix.flac`]);
    expect(exports.docs.get('old')!.purgedAt).toEqual(new Date(NOW));
    expect(exports.docs.get('fresh')!.purgedAt).toBeNull();
    // Nothing left to do on the next pass, until the fresh one expires.
    await expect(purge.execute()).resolves.toBe(0);
    clock.advance(60_001);
    await expect(purge.execute()).resolves.toBe(1);
    expect(storage.keys()).toEqual([]);
  });

  it('keeps an export whose files could not be removed unpurged, so the next pass tries again', async () => {
    await completed('old', NOW - 1);
    const removePrefix = storage.removePrefix.bind(storage);
    storage.removePrefix = async () => {
      throw new Error('S3 is down');
    };
    await expect(purge.execute()).resolves.toBe(0);
    expect(exports.docs.get('old')!.purgedAt).toBeNull();
    storage.removePrefix = removePrefix;
    await expect(purge.execute()).resolves.toBe(1);
    expect(storage.keys()).toEqual([]);
  });

  it('takes at most a batch per pass, oldest first', async () => {
    for (let index = 0; index < PURGE_BATCH + 5; index += 1) await completed(`e${index}`, NOW - 1000 + index);
    await expect(purge.execute()).resolves.toBe(PURGE_BATCH);
    expect(exports.docs.get('e0')!.purgedAt).not.toBeNull();
    expect(exports.docs.get(`e${PURGE_BATCH + 4}`)!.purgedAt).toBeNull();
    await expect(purge.execute()).resolves.toBe(5);
  });

  it('forgets exports expired for longer than it keeps their records', async () => {
    await completed('ancient', NOW - 1);
    await purge.execute();
    clock.advance(EXPIRED_RECORD_KEEP_MS - 2);
    await purge.execute();
    expect(exports.docs.has('ancient')).toBe(true);
    clock.advance(2);
    await purge.execute();
    expect(exports.docs.has('ancient')).toBe(false);
  });

  /** An export still processing, asked for at `createdAt`, with a half-written object in its folder. */
  async function processing(id: string, createdAt: number): Promise<void> {
    await exports.createRunning({
      _id: id,
      ownerId: 'u1',
      projectId: 'p1',
      kind: 'audio',
      request: { projectId: 'p1', exportType: 'full-mix', format: 'flac', mastering: 'raw', stems: [] },
      files: [],
      tags: { title: 'Song', bpm: null, key: null },
      filename: 'Song - full mix.flac',
      createdAt: new Date(createdAt),
      expiresAt: new Date(createdAt + 60_000),
    });
    await storage.putFile(`${prefix(id)}Song - full mix.flac`, '/tmp/x', 'audio/flac');
  }

  it('fails and cleans an export still processing long after any delivery could run it; a recent one is left running', async () => {
    expect(stuckAfterMs({ EXPORT_ACK_WAIT_MS: 30_000, EXPORT_MAX_DELIVER: 3 })).toBe(STUCK_EXPORT_MIN_MS);
    expect(stuckAfterMs({ EXPORT_ACK_WAIT_MS: 6 * 3600_000, EXPORT_MAX_DELIVER: 5 })).toBe(2 * 6 * 6 * 3600_000);
    await processing('stuck', NOW - STUCK_EXPORT_MIN_MS - 1);
    await processing('running', NOW - STUCK_EXPORT_MIN_MS + 60_000);
    await purge.execute();
    expect(exports.docs.get('stuck')).toMatchObject({ status: 'failed', error: AUDIO_EXPORT_FAILED });
    expect(exports.docs.get('running')).toMatchObject({ status: 'processing', error: null });
    expect(storage.keys()).toEqual([`${prefix('running')}Song - full mix.flac`]);
    // The recent one becomes stuck in its turn.
    clock.advance(60_001);
    await purge.execute();
    expect(exports.docs.get('running')).toMatchObject({ status: 'failed', error: AUDIO_EXPORT_FAILED });
    expect(storage.keys()).toEqual([]);
    // Failed exports' records are forgotten with the other expired ones.
    clock.advance(EXPIRED_RECORD_KEEP_MS);
    await purge.execute();
    expect([...exports.docs.keys()]).toEqual([]);
  });

  it('leaves a stuck export\'s folder alone when it completed at that moment (failing it found it no longer processing)', async () => {
    await processing('late', NOW - STUCK_EXPORT_MIN_MS - 1);
    exports.fail = async () => null;
    await purge.execute();
    expect(storage.keys()).toEqual([`${prefix('late')}Song - full mix.flac`]);
  });
});
