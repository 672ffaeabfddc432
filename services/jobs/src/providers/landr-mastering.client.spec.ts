import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANDR_API_KEY, startLandrContractServer, type LandrContractServer } from '../../../../test/support/provider-contract/landr-contract-server';
import { LandrMasteringClient, type LandrConfig } from './landr-mastering.client';

// LANDR has no public API: these shapes are the ASSUMED ones documented in landr-mastering.client.ts.
describe('LandrMasteringClient against the contract server', () => {
  let server: LandrContractServer;
  let dir: string;
  let input: string;
  let output: string;

  beforeEach(async () => {
    server = await startLandrContractServer();
    dir = await mkdtemp(join(tmpdir(), 'landr-spec-'));
    input = join(dir, 'mix.wav');
    output = join(dir, 'master.wav');
    await writeFile(input, Buffer.from('input-audio-bytes'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const client = (overrides: Partial<LandrConfig> = {}) =>
    new LandrMasteringClient({ apiKey: LANDR_API_KEY, baseUrl: server.url, timeoutMs: 60_000, pollMs: 5, maxPollMs: 20, retries: 3, ...overrides });
  const run = (c: LandrMasteringClient, signal = new AbortController().signal, onProgress: (f: number) => void = () => undefined) =>
    c.master({ inputPath: input, outputPath: output, style: 'warm', intensity: 2, onProgress, signal });

  it('uploads, submits, polls with progress and downloads the master', async () => {
    const progress: number[] = [];
    await run(client(), new AbortController().signal, (f) => progress.push(f));
    expect(await readFile(output)).toEqual(server.result);
    expect(progress).toEqual([0.3, 0.6, 1]);
    expect(server.uploads.get('asset-1')?.toString()).toBe('input-audio-bytes');
    const submit = server.requests.find((r) => r.method === 'POST' && r.path === '/v1/masters')!;
    expect(submit.headers.authorization).toBe(`Bearer ${LANDR_API_KEY}`);
    expect(submit.headers['content-type']).toBe('application/json');
    expect(JSON.parse(submit.body)).toEqual({ assetId: 'asset-1', style: 'warm', intensity: 2 });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/uploads', 'PUT /upload/asset-1', 'POST /v1/masters',
      'GET /v1/masters/master-1', 'GET /v1/masters/master-1', 'GET /v1/masters/master-1', 'GET /download/master',
    ]);
  });

  it('names refused credentials', async () => {
    server.mode = 'auth-refused';
    await expect(run(client())).rejects.toThrow('The LANDR credentials were refused');
  });

  it("passes on LANDR's reason when the job fails", async () => {
    server.mode = 'job-failed';
    await expect(run(client())).rejects.toThrow('LANDR could not master the audio: Audio is silent');
  });

  it('gives up after the timeout', async () => {
    server.mode = 'never-finishes';
    await expect(run(client({ timeoutMs: 60 }))).rejects.toThrow('LANDR did not finish within 0 minutes');
  });

  it('retries a 5xx', async () => {
    server.mode = 'flaky-5xx';
    await run(client());
    expect(server.requests.filter((r) => r.path === '/v1/masters')).toHaveLength(2);
    expect(await readFile(output)).toEqual(server.result);
  });

  it('stops when aborted', async () => {
    server.mode = 'never-finishes';
    const controller = new AbortController();
    await expect(run(client(), controller.signal, () => controller.abort(new Error('cancelled')))).rejects.toThrow('cancelled');
  });
});
