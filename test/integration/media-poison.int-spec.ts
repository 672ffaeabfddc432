import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_URL } from '../support/env';
import { listen, makeClip, objectKeys, ownerIdOf, upload } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const PID_FILE = join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'pids', 'media.pid');
/** The test stack's SEPARATION_MAX_DELIVER (the media service's default). */
const ATTEMPTS = Number(process.env.SEPARATION_MAX_DELIVER ?? 4);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function mediaReady(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`${BASE_URL}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await sleep(250);
  }
  throw new Error('the stack did not become ready again');
}

/**
 * A job whose worker dies on every delivery (as on a file that crashes or exhausts the process) must
 * not loop: after the allowed attempts it is marked failed, with a reason the user sees, and nothing
 * of it is left. The media worker is SIGKILLed each time it starts the job; the stack restarts it.
 */
describe('a separation job that kills its worker every time', () => {
  let demo: SignedInAgent;

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
  });

  afterAll(async () => {
    await mediaReady();
  }, 70_000);

  it('stops after the allowed attempts, fails with a plain reason and leaves no stems', async () => {
    const live = await listen(demo);
    const response = await upload(demo, makeClip('poison-take.mp3', 180, { codecArgs: ['-b:a', '64k'] }));
    expect(response.status).toBe(201);
    const projectId = ((await response.json()) as { project: { id: string } }).project.id;

    // Each delivery announces progress 0 as it starts; kill the worker right then.
    const kills: number[] = [];
    let seenStarts = 0;
    const deadline = Date.now() + 150_000;
    let failed: Record<string, unknown> | undefined;
    while (!failed && Date.now() < deadline) {
      const starts = live.seen.filter((e) => e.type === 'stems_progress' && e.projectId === projectId && e.progress === 0).length;
      if (starts > seenStarts) {
        seenStarts = starts;
        const pid = Number(readFileSync(PID_FILE, 'utf8'));
        process.kill(-pid, 'SIGKILL');
        kills.push(pid);
      }
      failed = live.seen.find((e) => e.type === 'stems_failed' && e.projectId === projectId);
      await sleep(20);
    }
    live.close();
    expect(failed).toMatchObject({ type: 'stems_failed', engine: 'fast', message: expect.stringContaining(`${ATTEMPTS} times`) });
    // Every allowed attempt started and died; the extra delivery only marked the job failed.
    expect(kills).toHaveLength(ATTEMPTS);
    expect(live.seen.some((e) => e.type === 'stems_ready' && e.projectId === projectId)).toBe(false);

    await mediaReady();
    const project = (await (await demo.fetch(`/api/projects/${projectId}`)).json()) as { jobs?: Array<{ engine: string; status: string; error: string }> };
    expect(project.jobs?.find((job) => job.engine === 'fast')).toMatchObject({ status: 'failed', error: expect.stringContaining(`each of ${ATTEMPTS} attempts`) });
    expect(await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()).toEqual([]);
    const ownerPrefix = `users/${await ownerIdOf(demo)}/projects/${projectId}/`;
    expect((await objectKeys(ownerPrefix)).map((key) => key.slice(ownerPrefix.length))).toEqual(['original']);
  }, 180_000);
});
