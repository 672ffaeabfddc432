import mongoose from 'mongoose';
import { projectPrefix } from '@stemdeck/proto';
import { CSRF } from '../support/env';
import { listen, makeClip, objectKeys, ownerIdOf, uploadSeparated } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };

interface ProjectAnswer {
  id: string;
  name: string;
  originalFile: string;
  duration: number;
  bpm: number | null;
  key: string | null;
  activeEngine: string | null;
  createdAt: string;
  jobs?: Array<{ engine: string; status: string; progress: number }>;
}

/** The documents the database still holds for a project, per collection. */
async function documentsOf(connection: mongoose.Connection, projectId: string): Promise<Record<string, number>> {
  const [projects, stems, jobs] = await Promise.all([
    connection.collection('projects').countDocuments({ _id: projectId as never }),
    connection.collection('stems').countDocuments({ projectId }),
    connection.collection('separation_jobs').countDocuments({ projectId }),
  ]);
  return { projects, stems, jobs };
}

/** A separated project of "My Song.final.ogg" (a 6 s clip). */
const uploadSong = (agent: SignedInAgent) =>
  uploadSeparated(agent, makeClip('library-fixture.ogg', 6, { codecArgs: ['-c:a', 'libvorbis'] }), { fileName: 'My Song.final.ogg' });

/**
 * Every test stands alone: the tests that only read share one project, uploaded before them and changed by
 * none of them; the rename and the delete each upload their own.
 */
describe('project library: list, rename, delete', () => {
  let connection: mongoose.Connection;
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  let ownerId: string;
  /** Read-only: no test renames, reprocesses or deletes this project. */
  let projectId: string;

  beforeAll(async () => {
    connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    ownerId = await ownerIdOf(demo);
    ({ projectId } = await uploadSong(demo));
  }, 60_000);
  afterAll(() => connection.close());

  it('lists the project named after its file, with duration, tempo, key, creation time and its separation state', async () => {
    const list = (await (await demo.fetch('/api/projects')).json()) as ProjectAnswer[];
    const listed = list.find((p) => p.id === projectId);
    expect(listed).toMatchObject({ name: 'My Song.final', originalFile: 'My Song.final.ogg', activeEngine: 'fast' });
    expect(listed!.duration).toBeCloseTo(6, 1);
    expect(listed!.bpm).toEqual(expect.any(Number));
    expect(listed!.key).toMatch(/^[A-G]#? (major|minor)$/);
    expect(Date.parse(listed!.createdAt)).toBeGreaterThan(Date.now() - 5 * 60_000);
    expect(listed!.jobs).toEqual([expect.objectContaining({ engine: 'fast', status: 'completed', progress: 1 })]);

    const one = (await (await demo.fetch(`/api/projects/${projectId}`)).json()) as ProjectAnswer;
    expect(one.jobs).toEqual(listed!.jobs);
    expect((await (await rival.fetch('/api/projects')).json()) as ProjectAnswer[]).not.toContainEqual(expect.objectContaining({ id: projectId }));
  });

  it('renames with a trimmed name of 1–120 characters and says which rule failed', async () => {
    const { projectId } = await uploadSong(demo);
    const renamed = await demo.fetch(`/api/projects/${projectId}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: '  Night Drive (live)  ' }) });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: projectId, name: 'Night Drive (live)', originalFile: 'My Song.final.ogg' });
    expect(((await (await demo.fetch(`/api/projects/${projectId}`)).json()) as ProjectAnswer).name).toBe('Night Drive (live)');

    const cases: Array<[unknown, string]> = [
      [{ name: '   ' }, 'name: The name cannot be empty'],
      [{ name: 'x'.repeat(121) }, 'name: The name can be at most 120 characters'],
      [{}, 'name: Required'],
      [{ name: 'ok', duration: 3 }, 'duration'],
    ];
    for (const [body, message] of cases) {
      const response = await demo.fetch(`/api/projects/${projectId}`, { method: 'PATCH', headers: json, body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(message);
    }
    const longest = await demo.fetch(`/api/projects/${projectId}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: 'y'.repeat(120) }) });
    expect(longest.status).toBe(200);
    const withoutHeader = await demo.fetch(`/api/projects/${projectId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'csrf' }),
    });
    expect(withoutHeader.status).toBe(403);
  }, 60_000);

  it("is 404 to another user: open, rename and delete leave the owner's project as it was", async () => {
    expect((await rival.fetch(`/api/projects/${projectId}`)).status).toBe(404);
    const rename = await rival.fetch(`/api/projects/${projectId}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: 'mine now' }) });
    expect(rename.status).toBe(404);
    expect((await rival.fetch(`/api/projects/${projectId}`, { method: 'DELETE', headers: CSRF })).status).toBe(404);
    expect((await demo.fetch(`/api/projects/${projectId}`)).status).toBe(200);
    expect(await documentsOf(connection, projectId)).toEqual({ projects: 1, stems: 4, jobs: 1 });
  });

  it('deletes every object and document of the project and tells the owner\'s sockets', async () => {
    const { projectId } = await uploadSong(demo);
    const prefix = projectPrefix(ownerId, projectId);
    const stored = await objectKeys(prefix);
    expect(stored).toEqual(expect.arrayContaining([`${prefix}original`, expect.stringMatching(/stems\/fast\/vocals\./)]));
    expect(stored.length).toBeGreaterThanOrEqual(5);

    // The hybrid engine's stems too: a second engine's objects and documents must go as well.
    const live = await listen(demo);
    const hybrid = await demo.fetch(`/api/projects/${projectId}/separate`, { method: 'POST', headers: json, body: JSON.stringify({ engine: 'hybrid' }) });
    expect(hybrid.status).toBe(202);
    await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === projectId && e.engine === 'hybrid', 30_000);
    expect(await documentsOf(connection, projectId)).toEqual({ projects: 1, stems: 8, jobs: 2 });

    expect((await demo.fetch(`/api/projects/${projectId}`, { method: 'DELETE' })).status).toBe(403);
    const deleted = await demo.fetch(`/api/projects/${projectId}`, { method: 'DELETE', headers: CSRF });
    expect(deleted.status).toBe(204);
    await live.waitFor((e) => e.type === 'project_deleted' && e.projectId === projectId);
    live.close();

    expect(await objectKeys(prefix)).toEqual([]);
    expect(await documentsOf(connection, projectId)).toEqual({ projects: 0, stems: 0, jobs: 0 });
    expect((await demo.fetch(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await demo.fetch(`/api/projects/${projectId}/stems`)).status).toBe(404);
    expect((await demo.fetch('/api/projects').then((r) => r.json())) as ProjectAnswer[]).not.toContainEqual(expect.objectContaining({ id: projectId }));
    expect((await demo.fetch(`/api/projects/${projectId}`, { method: 'DELETE', headers: CSRF })).status).toBe(404);
  }, 60_000);
});
