import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNWAY_API_KEY, RUNWAY_VERSION, startRunwayContractServer, type RunwayContractServer } from '../../../../test/support/provider-contract/runway-contract-server';
import { RunwayVideoClient, type RunwayConfig } from './runway-video.client';

describe('RunwayVideoClient against the contract server', () => {
  let server: RunwayContractServer;
  let dir: string;

  beforeEach(async () => {
    server = await startRunwayContractServer();
    server.clip = Buffer.from('runway-clip-bytes');
    dir = await mkdtemp(join(tmpdir(), 'runway-spec-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const client = (overrides: Partial<RunwayConfig> = {}) =>
    new RunwayVideoClient({ apiKey: RUNWAY_API_KEY, baseUrl: server.url, model: 'gen4.5', clipSeconds: 10, timeoutMs: 60_000, pollMs: 5, maxPollMs: 20, retries: 3, ...overrides });
  const generate = (c: RunwayVideoClient, signal = new AbortController().signal, onProgress: (f: number) => void = () => undefined) =>
    c.generate({ promptText: 'neon rain over a city', outputPath: join(dir, 'clip.mp4'), onProgress, signal });

  it('starts a text_to_video task with the key and API version, polls it with its progress, and downloads the clip', async () => {
    const progress: number[] = [];
    expect(await generate(client(), undefined, (f) => progress.push(f))).toBe(10);
    expect(await readFile(join(dir, 'clip.mp4'))).toEqual(server.clip);
    expect(progress).toEqual([0.4, 0.8, 1]);
    const start = server.requests[0]!;
    expect(start.headers).toMatchObject({ authorization: `Bearer ${RUNWAY_API_KEY}`, 'x-runway-version': RUNWAY_VERSION, 'content-type': 'application/json' });
    expect(JSON.parse(start.body)).toEqual({ model: 'gen4.5', promptText: 'neon rain over a city', ratio: '1280:720', duration: 10 });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/text_to_video',
      'GET /v1/tasks/task-1', 'GET /v1/tasks/task-1', 'GET /v1/tasks/task-1', 'GET /v1/tasks/task-1',
      'GET /outputs/task-1.mp4',
    ]);
  });

  it('names a refused key', async () => {
    server.mode = 'auth-refused';
    await expect(generate(client())).rejects.toThrow('The Runway API key was refused');
  });

  it("passes on Runway's reason when the task fails", async () => {
    server.mode = 'task-failed';
    await expect(generate(client())).rejects.toThrow('Runway could not generate the video: The prompt was flagged by content moderation');
  });

  it("passes on Runway's answer to a request it refuses", async () => {
    server.mode = 'bad-request';
    await expect(generate(client())).rejects.toThrow(/^Runway answered 400 to POST \/v1\/text_to_video: .*Validation of body failed/);
  });

  it('retries after a rate limit', async () => {
    server.mode = 'rate-limited-once';
    await generate(client());
    expect(server.requests.filter((r) => r.path === '/v1/text_to_video')).toHaveLength(2);
  });

  it('gives up after the timeout and cancels its task', async () => {
    server.mode = 'never-finishes';
    await expect(generate(client({ timeoutMs: 60 }))).rejects.toThrow('Runway did not finish within 0 minutes');
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/v1/tasks/task-1' });
  });

  it('stops when the job is cancelled and cancels its task at Runway', async () => {
    server.mode = 'never-finishes';
    const controller = new AbortController();
    await expect(generate(client(), controller.signal, () => controller.abort(new Error('cancelled')))).rejects.toThrow('cancelled');
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/v1/tasks/task-1' });
  });
});
