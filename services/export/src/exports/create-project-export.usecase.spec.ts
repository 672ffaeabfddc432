import { MemorySlotBoard } from '@stemdeck/platform';
import { CreateProjectExportUseCase } from './create-project-export.usecase';
import { ExportRefused } from './export-refused';
import { ExportSlots } from './export-slots';
import { StartExport } from './start-export';
import { FakePeers } from './testing/fake-peers';
import { FakeClock, FakeProjectDataWriter, RecordingExportQueue, SequentialIds } from './testing/fakes';
import { InMemoryExports } from './testing/in-memory-exports';

describe('CreateProjectExportUseCase', () => {
  let peers: FakePeers;
  let writer: FakeProjectDataWriter;
  let exports: InMemoryExports;
  let queue: RecordingExportQueue;
  let useCase: CreateProjectExportUseCase;

  beforeEach(() => {
    peers = new FakePeers();
    writer = new FakeProjectDataWriter();
    exports = new InMemoryExports();
    queue = new RecordingExportQueue();
    useCase = new CreateProjectExportUseCase(peers, writer, new StartExport(exports, new ExportSlots(new MemorySlotBoard(), exports, queue, { EXPORTS_PER_USER: 10, EXPORT_SLOT_SWEEP_MS: 60_000 }), { EXPORT_TTL_MINUTES: 60 }, new FakeClock(0), new SequentialIds('export')));
  });

  it('lets the writer check the formats, then stores and queues the export', async () => {
    peers.add('u1', { id: 'p1', name: 'Night Drive' });
    const record = await useCase.execute('u1', { projectId: 'p1', formats: ['touchdesigner', 'resolume'] });
    expect(record).toMatchObject({ id: 'export-1', kind: 'project', status: 'processing', filename: 'Night Drive - project data.zip' });
    expect(writer.checked).toEqual([['touchdesigner', 'resolume']]);
    expect(exports.docs.get('export-1')).toMatchObject({ request: { formats: ['touchdesigner', 'resolume'] }, files: [], tags: { title: 'Night Drive' } });
    expect(queue.queued.map((queued) => queued.exportId)).toEqual(['export-1']);
  });

  it('answers 404 for another owner\'s project (the writer is not asked) and passes the writer\'s refusal on; nothing is stored', async () => {
    peers.add('u2', { id: 'p1' });
    peers.add('u1', { id: 'p2' });
    await expect(useCase.execute('u1', { projectId: 'p1', formats: ['spotifyJson'] })).rejects.toMatchObject({ status: 404, message: 'Project not found' });
    expect(writer.checked).toEqual([]);
    writer.refusal = new ExportRefused(409, 'This project has no analysis yet');
    await expect(useCase.execute('u1', { projectId: 'p2', formats: ['spotifyJson'] })).rejects.toBe(writer.refusal);
    expect(exports.docs.size).toBe(0);
    expect(queue.queued).toEqual([]);
  });
});
