import type { AudioExportBody, ExportRecord } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { EXPORT_STILL_RUNNING, ExportAndWaitUseCase, type ExportCalls, type WaitTiming } from './export-and-wait.usecase';

const record = (changes: Partial<ExportRecord> = {}): ExportRecord => ({
  id: 'e1',
  projectId: 'p1',
  kind: 'audio',
  status: 'processing',
  progress: 0,
  filename: 'Déjà vu - stems.zip',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-02T00:00:00.000Z',
  ...changes,
});
const body: AudioExportBody = { projectId: 'p1', exportType: 'individual', format: 'flac', mastering: 'raw', stems: [] };

/** The export service as a script: `create` answers the first record, each read the next one (the last one repeats). */
class ScriptedExports implements ExportCalls {
  reads = 0;
  constructor(private readonly script: ExportRecord[]) {}
  createAudioExport = async () => this.script[0]!;
  createProjectExport = async () => ({ ...this.script[0]!, kind: 'project' as const });
  getExport = async (ownerId: string, id: string) => {
    expect([ownerId, id]).toEqual(['u1', 'e1']);
    this.reads += 1;
    return this.script[Math.min(this.reads, this.script.length - 1)]!;
  };
}

/** A clock that moves only by the waits. */
function fakeTiming(limitMs = 10_000): WaitTiming & { slept: number[] } {
  let time = 0;
  const slept: number[] = [];
  return { pollMs: 250, limitMs, slept, now: () => time, sleep: async (ms) => void (slept.push(ms), (time += ms)) };
}

describe('ExportAndWaitUseCase', () => {
  it('reads the export every 250 ms until it completes, then answers its name and download url', async () => {
    const exports = new ScriptedExports([record(), record({ progress: 40 }), record({ status: 'completed', progress: 100 })]);
    const timing = fakeTiming();
    await expect(new ExportAndWaitUseCase(exports, timing).audio('u1', body)).resolves.toEqual({
      id: 'e1',
      filename: 'Déjà vu - stems.zip',
      downloadUrl: '/api/exports/e1/download',
      expiresAt: '2026-01-02T00:00:00.000Z',
    });
    expect(timing.slept).toEqual([250, 250]);
  });

  it('answers 500 with a failed export\'s words (or the kind\'s when it has none)', async () => {
    const failed = new ScriptedExports([record(), record({ status: 'failed', error: 'Failed to export audio files' })]);
    await expect(new ExportAndWaitUseCase(failed, fakeTiming()).audio('u1', body)).rejects.toMatchObject({ status: 500, message: 'Failed to export audio files' });
    const silent = new ScriptedExports([record(), record({ status: 'failed', kind: 'project' })]);
    await expect(new ExportAndWaitUseCase(silent, fakeTiming()).project('u1', { projectId: 'p1', formats: ['resolume'] })).rejects.toMatchObject({
      status: 500,
      message: 'Failed to export project data',
    });
  });

  it('answers a refusal met while the export was built with its own status and words (409 not analysed), not a generic 500', async () => {
    const refused = new ScriptedExports([
      record({ kind: 'project' }),
      record({ kind: 'project', status: 'failed', error: 'The song has not been analysed yet', errorStatus: 409 }),
    ]);
    const answer = new ExportAndWaitUseCase(refused, fakeTiming()).project('u1', { projectId: 'p1', formats: ['spotifyJson'] });
    await expect(answer).rejects.toBeInstanceOf(DomainError);
    await expect(answer).rejects.toMatchObject({ status: 409, message: 'The song has not been analysed yet' });
    // A status without words of its own is no refusal: the kind's words with 500.
    const bare = new ScriptedExports([record(), record({ status: 'failed', errorStatus: 409 })]);
    await expect(new ExportAndWaitUseCase(bare, fakeTiming()).audio('u1', body)).rejects.toMatchObject({ status: 500, message: 'Failed to export audio files' });
  });

  it('gives up with 504 when the export is still running at the limit', async () => {
    const exports = new ScriptedExports([record()]);
    await expect(new ExportAndWaitUseCase(exports, fakeTiming(1000)).audio('u1', body)).rejects.toMatchObject({ status: 504, message: EXPORT_STILL_RUNNING });
    expect(exports.reads).toBe(4);
  });

  it('reads again after a read the export service did not answer (it restarts); a refusal ends the wait', async () => {
    const exports = new ScriptedExports([record(), record(), record({ status: 'completed' })]);
    const getExport = exports.getExport;
    let unanswered = 2;
    exports.getExport = async (ownerId, id) => {
      if (unanswered-- > 0) throw new Error('no responders');
      return getExport(ownerId, id);
    };
    await expect(new ExportAndWaitUseCase(exports, fakeTiming()).audio('u1', body)).resolves.toMatchObject({ id: 'e1' });
    exports.getExport = async () => {
      throw new DomainError(404, 'Export not found');
    };
    await expect(new ExportAndWaitUseCase(exports, fakeTiming()).audio('u1', body)).rejects.toMatchObject({ status: 404, message: 'Export not found' });
  });

  it('stops reading once the client went away', async () => {
    const exports = new ScriptedExports([record()]);
    const controller = new AbortController();
    const timing = fakeTiming();
    const sleep = timing.sleep;
    timing.sleep = async (ms) => {
      await sleep(ms);
      if (exports.reads === 2) controller.abort(new Error('gone'));
    };
    await expect(new ExportAndWaitUseCase(exports, timing).audio('u1', body, controller.signal)).rejects.toThrow('gone');
    expect(exports.reads).toBe(2);
  });
});
