import { MemorySlotBoard } from '@stemdeck/platform';
import { ExportQueries } from './export.queries';
import { ExportSlots, NOT_QUEUED } from './export-slots';
import { StartExport, type ExportToStart } from './start-export';
import { FakePeers } from './testing/fake-peers';
import { FakeClock, RecordingExportQueue, SequentialIds } from './testing/fakes';
import { InMemoryExports } from './testing/in-memory-exports';

const toStart = (ownerId: string): ExportToStart => ({
  ownerId,
  projectId: 'p1',
  kind: 'audio',
  request: { projectId: 'p1', exportType: 'full-mix', format: 'flac', mastering: 'raw', stems: [] },
  files: [],
  tags: { title: 'Song', bpm: null, key: null },
  filename: 'Song - full mix.flac',
});

/** Each user has EXPORTS_PER_USER exports built at once; the rest wait their turn, oldest first. */
describe('the line: each user has EXPORTS_PER_USER exports built at once', () => {
  let exports: InMemoryExports;
  let queue: RecordingExportQueue;
  let board: MemorySlotBoard;
  let slots: ExportSlots;
  let starter: StartExport;
  let queries: ExportQueries;
  const queuedIds = () => queue.queued.map((entry) => entry.exportId);

  beforeEach(() => {
    exports = new InMemoryExports();
    queue = new RecordingExportQueue();
    board = new MemorySlotBoard();
    slots = new ExportSlots(board, exports, queue, { EXPORTS_PER_USER: 2, EXPORT_SLOT_SWEEP_MS: 60_000 });
    // Each export a millisecond after the one before: the line is by creation time.
    const clock = new FakeClock(0, 1);
    starter = new StartExport(exports, slots, { EXPORT_TTL_MINUTES: 60 }, clock, new SequentialIds('export'));
    const peers = new FakePeers();
    peers.add('u1', { id: 'p1' });
    peers.add('u2', { id: 'p1' });
    queries = new ExportQueries(exports, peers, peers, clock);
  });

  it('builds the first two at once; the rest are accepted, processing, with places 1..n, and nothing queued for them', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await starter.start(toStart('u1')));
    expect(answers.map((record) => [record.id, record.status, record.queuePosition])).toEqual([
      ['export-1', 'processing', undefined],
      ['export-2', 'processing', undefined],
      ['export-3', 'processing', 1],
      ['export-4', 'processing', 2],
    ]);
    expect(queuedIds()).toEqual(['export-1', 'export-2']);
    expect(board.slots.size).toBe(2);
    await expect(queries.get('u1', 'export-4')).resolves.toMatchObject({ status: 'processing', queuePosition: 2 });
    await expect(queries.get('u1', 'export-1')).resolves.not.toHaveProperty('queuePosition');
  });

  it("lists the project's exports still being built or waiting, oldest first, each waiting one with its place", async () => {
    for (let i = 0; i < 4; i++) await starter.start(toStart('u1'));
    await starter.start(toStart('u2'));
    expect((await queries.running('u1', 'p1')).map((record) => [record.id, record.queuePosition])).toEqual([
      ['export-1', undefined],
      ['export-2', undefined],
      ['export-3', 1],
      ['export-4', 2],
    ]);
    await exports.fail('u1', 'export-1', 'Failed to export audio files');
    await slots.release('u1', 'export-1');
    expect((await queries.running('u1', 'p1')).map((record) => [record.id, record.queuePosition])).toEqual([
      ['export-2', undefined],
      ['export-3', undefined],
      ['export-4', 1],
    ]);
    // u2's own project of that id has none of u1's; a project that is not theirs is 404.
    expect(await queries.running('u2', 'p1')).toHaveLength(1);
    await expect(queries.running('u2', 'elsewhere')).rejects.toMatchObject({ status: 404 });
  });

  it('hands a released slot to the oldest waiting export; the one behind it reads its new place', async () => {
    for (let i = 0; i < 4; i++) await starter.start(toStart('u1'));
    await exports.complete('u1', 'export-1', { filename: 'f', objectKey: 'k', contentType: 'audio/flac', completedAt: new Date(0), expiresAt: new Date(1) });
    await slots.release('u1', 'export-1');
    expect(queuedIds()).toEqual(['export-1', 'export-2', 'export-3']);
    await expect(queries.get('u1', 'export-3')).resolves.not.toHaveProperty('queuePosition');
    await expect(queries.get('u1', 'export-4')).resolves.toMatchObject({ queuePosition: 1 });
    // Released again (the worker and the sweep both): nothing more starts than the limit allows.
    await slots.release('u1', 'export-1');
    expect(queuedIds()).toEqual(['export-1', 'export-2', 'export-3']);
  });

  it("does not hold another user back behind someone's line", async () => {
    for (let i = 0; i < 4; i++) await starter.start(toStart('u1'));
    const theirs = await starter.start(toStart('u2'));
    expect(theirs).not.toHaveProperty('queuePosition');
    expect(queuedIds()).toEqual(['export-1', 'export-2', 'export-5']);
  });

  it('fails a waiting export whose turn came while the queue was away (its reader sees why); the next one keeps waiting for its turn', async () => {
    for (let i = 0; i < 4; i++) await starter.start(toStart('u1'));
    queue.failure = new Error('no JetStream');
    await exports.fail('u1', 'export-1', 'Failed to export audio files');
    await slots.release('u1', 'export-1');
    expect(exports.docs.get('export-3')).toMatchObject({ status: 'failed', error: NOT_QUEUED, waiting: false });
    // Its slot was given back with it, and export-4 was not sent into the same refusal: it still waits.
    expect(exports.docs.get('export-4')).toMatchObject({ waiting: true });
    queue.failure = undefined;
    const next = await starter.start(toStart('u1'));
    expect(next).toMatchObject({ queuePosition: 1 });
    expect(queuedIds()).toEqual(['export-1', 'export-2', 'export-4']);
  });

  it('the sweep frees the slot of an export that ended without giving it back, and starts the next; a waiting export is never called stuck', async () => {
    for (let i = 0; i < 3; i++) await starter.start(toStart('u1'));
    expect(await exports.listStuck(new Date(1_000), 10)).toHaveLength(2);
    await exports.fail('u1', 'export-2', 'Failed to export audio files');
    expect(queuedIds()).toEqual(['export-1', 'export-2']);
    await expect(slots.sweep()).resolves.toEqual({ freed: 1, owners: 1 });
    expect(queuedIds()).toEqual(['export-1', 'export-2', 'export-3']);
  });

  it('sweeps on its own timer once the service is up, and stops with it', async () => {
    const timed = new ExportSlots(board, exports, queue, { EXPORTS_PER_USER: 1, EXPORT_SLOT_SWEEP_MS: 20 });
    const timedStarter = new StartExport(exports, timed, { EXPORT_TTL_MINUTES: 60 }, new FakeClock(0, 1), new SequentialIds('t'));
    await timedStarter.start(toStart('u3'));
    await expect(timedStarter.start(toStart('u3'))).resolves.toMatchObject({ queuePosition: 1 });
    // t-1 ends without giving its slot back (its worker died): the timer's sweep starts t-2.
    await exports.fail('u3', 't-1', 'Failed to export audio files');
    timed.onApplicationBootstrap();
    try {
      const until = Date.now() + 2000;
      while (!queuedIds().includes('t-2') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(queuedIds()).toEqual(['t-1', 't-2']);
    } finally {
      await timed.onApplicationShutdown();
    }
  });
});

