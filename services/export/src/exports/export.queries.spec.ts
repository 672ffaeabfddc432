import { ExportQueries, EXPORT_EXPIRED, EXPORT_FAILED, EXPORT_NOT_FOUND, EXPORT_NOT_READY } from './export.queries';
import { NO_MASTER } from './export-plan';
import type { NewExport } from './exports.ports';
import { ENHANCED, FakePeers, fullMixMaster, stemsOf } from './testing/fake-peers';
import { FakeClock } from './testing/fakes';
import { InMemoryExports } from './testing/in-memory-exports';

describe('ExportQueries', () => {
  const HOUR = 3600_000;
  let exports: InMemoryExports;
  let peers: FakePeers;
  let clock: FakeClock;
  let queries: ExportQueries;
  const newExport = (id: string, ownerId = 'u1'): NewExport => ({
    _id: id,
    ownerId,
    projectId: 'p1',
    kind: 'audio',
    request: { projectId: 'p1', exportType: 'full-mix', format: 'flac', mastering: 'raw', stems: [] },
    files: [],
    tags: { title: 'Song', bpm: null, key: null },
    filename: 'Song - full mix.flac',
    createdAt: new Date(0),
    expiresAt: new Date(HOUR),
  });
  const completed = async (id: string, expiresAt: number) => {
    await exports.createRunning(newExport(id));
    await exports.complete('u1', id, { filename: 'Song - full mix.flac', objectKey: `k/${id}`, contentType: 'audio/flac', completedAt: new Date(0), expiresAt: new Date(expiresAt) });
  };

  beforeEach(() => {
    exports = new InMemoryExports();
    peers = new FakePeers();
    clock = new FakeClock(10 * HOUR);
    queries = new ExportQueries(exports, peers, peers, clock);
  });

  it('reads the owner\'s export; another owner\'s or an unknown one is 404', async () => {
    await exports.createRunning(newExport('e1'));
    await expect(queries.get('u1', 'e1')).resolves.toMatchObject({ id: 'e1', status: 'processing', filename: 'Song - full mix.flac' });
    await expect(queries.get('u2', 'e1')).rejects.toMatchObject({ status: 404, message: EXPORT_NOT_FOUND });
    await expect(queries.get('u1', 'nope')).rejects.toMatchObject({ status: 404 });
  });

  it('hands a completed export\'s file out until it expires, then 410 (whether or not the sweep removed it yet)', async () => {
    await completed('e1', 10 * HOUR + 1);
    await expect(queries.download('u1', 'e1')).resolves.toEqual({ objectKey: 'k/e1', contentType: 'audio/flac', fileName: 'Song - full mix.flac' });
    await expect(queries.download('u2', 'e1')).rejects.toMatchObject({ status: 404 });
    clock.advance(1);
    await expect(queries.download('u1', 'e1')).rejects.toMatchObject({ status: 410, message: EXPORT_EXPIRED });
    await completed('e2', 20 * HOUR);
    await exports.markPurged('u1', 'e2', new Date());
    await expect(queries.download('u1', 'e2')).rejects.toMatchObject({ status: 410 });
  });

  it('answers 409 for an export that is still processing or failed', async () => {
    await exports.createRunning(newExport('e1'));
    await expect(queries.download('u1', 'e1')).rejects.toMatchObject({ status: 409, message: EXPORT_NOT_READY });
    await exports.fail('u1', 'e1', 'Failed to export audio files');
    await expect(queries.download('u1', 'e1')).rejects.toMatchObject({ status: 409, message: EXPORT_FAILED });
  });

  it('answers the project\'s export options; another owner\'s project is 404', async () => {
    peers.add('u1', { id: 'p1' }, stemsOf('p1', { other: { enhanced: ENHANCED } }), [fullMixMaster('m1')]);
    peers.add('u1', { id: 'p2' }, stemsOf('p2'));
    await expect(queries.options('u1', 'p1')).resolves.toMatchObject({ projectId: 'p1', variants: { both: { available: true } }, enhancedStemIds: ['p1-other'] });
    await expect(queries.options('u1', 'p2')).resolves.toMatchObject({ variants: { landr: { available: false, reason: NO_MASTER } } });
    await expect(queries.options('u2', 'p1')).rejects.toMatchObject({ status: 404, message: 'Project not found' });
  });
});
