import { readFileSync } from 'node:fs';
import mongoose from 'mongoose';
import { join } from 'node:path';
import { BASE_URL, BASE_URL_2, CSRF } from '../support/env';
import { makeClip, objectKeys, ownerIdOf, upload } from '../support/media';
import { signInExtraUser } from '../support/sessions';
import { signIn, type SignedInAgent } from '../support/sign-in';
import { eventually, infra, waitForStudioReady } from '../support/stack-control';

/**
 * Promise: when NATS restarts, every service and both gateway replicas reconnect by themselves (/readyz 200
 * again on both); a separation job queued before the restart completes after it (its message is in
 * JetStream's file storage); an upload in flight during the restart either completes or fails with a plain
 * message; media forgets the reads it kept (a change another instance announced meanwhile was never heard).
 */
/** The lines of either gateway replica's log that name this error id (the cause of a 500). */
function gatewayLogLine(errorId: string | undefined): string {
  if (!errorId) return '';
  const logs = join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'logs');
  return ['gateway.log', 'gateway-2.log']
    .flatMap((file) => readFileSync(join(logs, file), 'utf8').split('\n'))
    .filter((line) => line.includes(errorId))
    .join('\n')
    .slice(0, 3000);
}

describe('fault: NATS restarted', () => {
  let demo: SignedInAgent;
  let ownerPrefix: string;
  const projectFolders = async () => [...new Set((await objectKeys(ownerPrefix)).map((key) => key.split('/')[3]))].sort();
  const projectIds = async () => ((await (await demo.fetch('/api/projects')).json()) as Array<{ id: string }>).map((p) => p.id).sort();

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
    ownerPrefix = `users/${await ownerIdOf(demo)}/`;
    makeClip('fault-nats-job.mp3', 40, { codecArgs: ['-b:a', '64k'] });
    makeClip('fault-nats-inflight.wav', 60);
  });

  afterAll(async () => {
    await infra('nats', 'start');
    await waitForStudioReady(90_000);
  }, 120_000);

  const stemCount = async (projectId: string) => ((await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as unknown[]).length;

  it('reconnects every process, finishes the queued job and answers the upload in flight', async () => {
    const [foldersBefore, projectsBefore] = [await projectFolders(), await projectIds()];
    const queued = await upload(demo, makeClip('fault-nats-job.mp3', 40, { codecArgs: ['-b:a', '64k'] }));
    expect(queued.status).toBe(201);
    const projectId = ((await queued.json()) as { project: { id: string } }).project.id;
    expect(await stemCount(projectId)).toBe(0);

    // An upload on its way while NATS goes down and comes back.
    const inFlight = upload(demo, makeClip('fault-nats-inflight.wav', 60)).then(async (response) => {
      const body = (await response.json()) as { message?: string; errorId?: string; project?: { id: string } };
      return { status: response.status, message: body.message ?? '', errorId: body.errorId, projectId: body.project?.id };
    });
    await infra('nats', 'stop');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await infra('nats', 'start');

    const answer = await inFlight;
    if (answer.status !== 201) {
      // On a surprise, the gateway's log line for this answer comes with the failure.
      expect({ ...answer, logged: gatewayLogLine(answer.errorId) }).toMatchObject({ status: 503, message: expect.stringMatching(/try again/i) });
    }

    // No restart by hand: both replicas report every service and dependency ready again.
    await waitForStudioReady(60_000);
    for (const base of [BASE_URL, BASE_URL_2]) expect((await fetch(`${base}/readyz`)).status).toBe(200);

    // The job queued before the restart is not lost: its stems arrive.
    await eventually('the queued job\'s four stems', async () => ((await stemCount(projectId)) === 4 ? true : undefined), 60_000);
    // A refused upload left nothing behind: only the projects that were answered 201 exist, in the list and in storage.
    const kept = [projectId, ...(answer.projectId ? [answer.projectId] : [])];
    expect(await projectIds()).toEqual([...projectsBefore, ...kept].sort());
    expect(await projectFolders()).toEqual([...foldersBefore, ...kept].sort());
  }, 150_000);

  it('has media drop the reads it kept once its connection is back (announcements made meanwhile were lost)', async () => {
    // media's MEDIA_READ_CACHE_TTL_MS default: without the drop, the old name would be answered this long.
    const TTL_MS = 30_000;
    // Its own user: the jobs of the test above write demo's projects (which drops their reads anyway).
    const [connection, owner] = await Promise.all([mongoose.createConnection(process.env.MONGODB_URI!).asPromise(), signInExtraUser('nats-cache-owner', 'Nats', 'Cache')]);
    const json = { ...CSRF, 'content-type': 'application/json' };
    const created = await owner.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Kept before the outage', originalFile: 'take.wav', duration: 30 }) });
    const { id } = (await created.json()) as { id: string };
    const nameNow = async () => ((await (await owner.fetch(`/api/projects/${id}`)).json()) as { name: string }).name;
    try {
      const keptFrom = Date.now();
      expect(await nameNow()).toBe('Kept before the outage');
      await infra('nats', 'stop');
      // Another instance's change while NATS is away: written, its announcement lost.
      await connection.collection('projects').updateOne({ _id: id as never }, { $set: { name: 'Changed during the outage' } });
      await infra('nats', 'start');
      await waitForStudioReady(60_000);
      expect(await nameNow()).toBe('Changed during the outage');
      // Shown because the reads were dropped, not because they had aged out.
      expect(Date.now() - keptFrom).toBeLessThan(TTL_MS);
    } finally {
      await owner.fetch(`/api/projects/${id}`, { method: 'DELETE', headers: CSRF });
      await connection.close();
    }
  }, 120_000);
});
