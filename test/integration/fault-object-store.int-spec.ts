import { makeClip, objectKeys, ownerIdOf, upload, uploadSeparated } from '../support/media';
import { BASE_URL } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';
import { infra, waitForStudioReady } from '../support/stack-control';

/**
 * Promise: while object storage is down, /readyz answers 503 naming it, an upload answers 503 within 5 s with a
 * plain message and leaves no object and no project behind; once storage is back, uploads work again.
 */
describe('fault: object storage down', () => {
  let demo: SignedInAgent;
  let ownerPrefix: string;
  const clip = () => makeClip('fault-storage.mp3', 6, { codecArgs: ['-b:a', '128k'] });
  const projectIds = async () => ((await (await demo.fetch('/api/projects')).json()) as Array<{ id: string }>).map((p) => p.id).sort();
  const projectFolders = async () => [...new Set((await objectKeys(ownerPrefix)).map((key) => key.split('/')[3]))].sort();

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
    ownerPrefix = `users/${await ownerIdOf(demo)}/`;
    clip();
  });

  afterAll(async () => {
    // Whatever happened above, the next spec finds storage running and the studio ready.
    await infra('minio', 'start');
    await waitForStudioReady();
  }, 120_000);

  it('answers 503 naming storage, refuses uploads fast with nothing kept, and recovers', async () => {
    const projectsBefore = await projectIds();
    const foldersBefore = await projectFolders();
    await infra('minio', 'stop');
    try {
      const readyz = await fetch(`${BASE_URL}/readyz`, { signal: AbortSignal.timeout(10_000) });
      expect(readyz.status).toBe(503);
      const readiness = (await readyz.json()) as { checks: Record<string, { status: string }> };
      expect(readiness.checks.storage?.status).not.toBe('ok');
      expect(readiness.checks.database?.status).toBe('ok');

      const started = Date.now();
      const refused = await upload(demo, clip());
      const elapsedMs = Date.now() - started;
      const body = (await refused.json()) as { message: string };
      expect({ status: refused.status, elapsedUnder5s: elapsedMs < 5000 }).toEqual({ status: 503, elapsedUnder5s: true });
      // Plain words: no error codes, hosts or stack frames.
      expect(body.message).toMatch(/try again/i);
      expect(body.message).not.toMatch(/ECONN|127\.0\.0\.1|at .*\.js|Error:/);
      expect(await projectIds()).toEqual(projectsBefore);
    } finally {
      await infra('minio', 'start');
    }
    // Nothing half-written landed in storage while it was down (its folders are as before).
    expect(await projectFolders()).toEqual(foldersBefore);
    await waitForStudioReady(30_000);

    const { projectId, stems } = await uploadSeparated(demo, clip());
    expect(stems).toHaveLength(4);
    expect(await projectIds()).toEqual([...projectsBefore, projectId].sort());
    expect(await projectFolders()).toEqual([...foldersBefore, projectId].sort());
  }, 90_000);
});
