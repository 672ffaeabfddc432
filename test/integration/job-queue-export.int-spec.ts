import mongoose from 'mongoose';
import { postExport, type ExportAnswer } from '../support/export';
import { makeClip, ownerIdOf, uploadSeparated } from '../support/media';
import { signInExtraUser } from '../support/sessions';
import type { SignedInAgent } from '../support/sign-in';

/** The stack's exports per user (EXPORTS_PER_USER, default 2). */
const PER_USER = 2;
const EXPORTS = PER_USER + 2;

interface ExportRecord {
  id: string;
  status: string;
  queuePosition?: number;
}

/**
 * Per-user concurrent exports on the real stack: one person asks for more exports at once than they may have
 * built at once; none is refused (each request still answers its file), the extra ones wait with their place
 * in line (GET /api/exports/:id says it), start as the earlier ones end, and never more than the limit are built.
 */
describe('tenant limits: concurrent exports per user', () => {
  let connection: mongoose.Connection;
  let person: SignedInAgent;
  let ownerId: string;
  let projectId: string;

  beforeAll(async () => {
    connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
    person = await signInExtraUser('export-line-person', 'Export', 'Line');
    ownerId = await ownerIdOf(person);
    // Long enough that the first exports are still being built when the last are asked for.
    ({ projectId } = await uploadSeparated(person, makeClip('export-line-20s.ogg', 20, { codecArgs: ['-c:a', 'libvorbis'] })));
  }, 90_000);
  afterAll(() => connection.close());

  it(`builds ${PER_USER} of a user's exports at once, queues the rest with their place, and answers every one with its file`, async () => {
    const since = new Date();
    const exports = () => connection.collection('exports').find({ ownerId, projectId, createdAt: { $gte: since } }).toArray();
    // Watch the user's exports while the requests wait for their files.
    let watching = true;
    let mostBuilding = 0;
    const waitingSeen = new Map<string, number[]>();
    /** What the export panels read while their requests wait: the project's exports in the making, with places. */
    const listedPlaces = new Set<number>();
    const watch = (async () => {
      while (watching) {
        const docs = await exports();
        mostBuilding = Math.max(mostBuilding, docs.filter((doc) => doc.status === 'processing' && !doc.waiting).length);
        for (const doc of docs.filter((d) => d.status === 'processing' && d.waiting)) {
          const record = (await (await person.fetch(`/api/exports/${doc._id}`)).json()) as ExportRecord;
          if (record.queuePosition !== undefined) waitingSeen.set(record.id, [...(waitingSeen.get(record.id) ?? []), record.queuePosition]);
        }
        const running = (await (await person.fetch(`/api/projects/${projectId}/exports`)).json()) as ExportRecord[];
        for (const record of running) if (record.queuePosition !== undefined) listedPlaces.add(record.queuePosition);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();

    const body = (format: string) => ({ projectId, exportType: 'individual', format, mastering: 'raw', stems: [] });
    const formats = ['wav-24-48', 'flac', 'aiff-24-48', 'mp3-320'];
    const answers = await Promise.all(formats.map((format) => postExport(person, 'audio', body(format))));
    watching = false;
    await watch;
    // Not refused: every request answered its file once it was built.
    expect(answers.map((answer) => answer.status)).toEqual(Array(EXPORTS).fill(200));
    const files = (await Promise.all(answers.map((answer) => answer.json()))) as ExportAnswer[];
    expect(files.every((file) => file.downloadUrl === `/api/exports/${file.id}/download`)).toBe(true);

    // The ones beyond the user's slots waited, with places 1..n (1 = next); never more than PER_USER built at once.
    // (Every export is stored waiting and admitted a moment later: a read in that moment may also see one that is
    // about to start, with a place, so at least the extra ones are seen waiting, each at a place among the four.)
    expect(waitingSeen.size).toBeGreaterThanOrEqual(EXPORTS - PER_USER);
    expect(Math.max(...[...waitingSeen.values()].flat())).toBeGreaterThanOrEqual(EXPORTS - PER_USER);
    expect(Math.max(...[...waitingSeen.values()].flat())).toBeLessThanOrEqual(EXPORTS);
    expect([...waitingSeen.values()].flat()).toContain(1);
    expect([...listedPlaces]).toEqual(expect.arrayContaining([1, 2]));
    expect(mostBuilding).toBeGreaterThan(0);
    expect(mostBuilding).toBeLessThanOrEqual(PER_USER);

    // Nothing is left holding a slot, none is left waiting, and each export was built once.
    expect(await connection.collection('job_slots').countDocuments({ kind: 'exports', ownerId })).toBe(0);
    const stored = await exports();
    expect(stored.map((doc) => [doc.status, doc.waiting, doc.attempts])).toEqual(Array(EXPORTS).fill(['completed', false, 1]));
    expect(await (await person.fetch(`/api/projects/${projectId}/exports`)).json()).toEqual([]);
    for (const file of files) {
      const record = (await (await person.fetch(`/api/exports/${file.id}`)).json()) as ExportRecord;
      expect(record).toMatchObject({ status: 'completed' });
      expect(record.queuePosition).toBeUndefined();
    }
  }, 240_000);

  it("answers 404 for the exports list of someone else's project", async () => {
    const stranger = await signInExtraUser('export-line-stranger', 'Export', 'Stranger');
    expect((await stranger.fetch(`/api/projects/${projectId}/exports`)).status).toBe(404);
  });
});
