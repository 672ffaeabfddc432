import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DOLBY_APP_KEY,
  DOLBY_APP_SECRET,
  DOLBY_TOKEN,
  startDolbyContractServer,
  type DolbyContractServer,
} from '../../../../test/support/provider-contract/dolby-contract-server';
import { DolbyMediaClient, type DolbyConfig } from './dolby-media.client';

describe('DolbyMediaClient against the contract server', () => {
  let server: DolbyContractServer;
  let dir: string;
  let input: string;
  let output: string;

  beforeEach(async () => {
    server = await startDolbyContractServer();
    dir = await mkdtemp(join(tmpdir(), 'dolby-spec-'));
    input = join(dir, 'mix.wav');
    output = join(dir, 'master.wav');
    await writeFile(input, Buffer.from('input-audio-bytes'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const client = (overrides: Partial<DolbyConfig> = {}) =>
    new DolbyMediaClient({
      appKey: DOLBY_APP_KEY,
      appSecret: DOLBY_APP_SECRET,
      authBaseUrl: server.url,
      apiBaseUrl: server.url,
      timeoutMs: 60_000,
      pollMs: 5,
      maxPollMs: 20,
      retries: 3,
      ...overrides,
    });
  const master = { dynamic_eq: { preset: 'A' }, loudness: { target_level: -14 } };

  it('uploads, submits, polls with progress and downloads the result', async () => {
    const progress: number[] = [];
    await client().master({ inputPath: input, outputPath: output, master, onProgress: (f) => progress.push(f), signal: new AbortController().signal });

    expect(await readFile(output)).toEqual(server.result);
    expect(progress).toEqual([0.3, 0.6, 1]);
    const [auth, inputReq, upload, submit] = server.requests;
    // https://docs.dolby.io/media-apis/reference/get-api-token
    expect(auth.method).toBe('POST');
    expect(auth.path).toBe('/v1/auth/token');
    expect(auth.headers.authorization).toBe(`Basic ${Buffer.from(`${DOLBY_APP_KEY}:${DOLBY_APP_SECRET}`).toString('base64')}`);
    expect(auth.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(auth.body).toBe('grant_type=client_credentials&expires_in=1800');
    // https://docs.dolby.io/media-apis/reference/media-input-post
    expect(inputReq.path).toBe('/media/input');
    expect(inputReq.headers.authorization).toBe(`Bearer ${DOLBY_TOKEN}`);
    const dlbIn = (JSON.parse(inputReq.body) as { url: string }).url;
    expect(dlbIn).toMatch(/^dlb:\/\/in\/stemdeck\//);
    expect(upload.method).toBe('PUT');
    expect(server.uploads.get(dlbIn)?.toString()).toBe('input-audio-bytes');
    // https://docs.dolby.io/media-apis/reference/media-music-mastering-post
    expect(submit.method).toBe('POST');
    expect(submit.path).toBe('/media/master');
    expect(submit.headers['content-type']).toBe('application/json');
    const body = JSON.parse(submit.body) as { inputs: Array<{ source: string }>; outputs: Array<{ destination: string; master: unknown }> };
    expect(body.inputs).toEqual([{ source: dlbIn }]);
    expect(body.outputs).toEqual([{ destination: dlbIn.replace('dlb://in/', 'dlb://out/'), kind: 'wav', master }]);
    expect(server.requests.filter((r) => r.path === '/media/master?job_id=job-1')).toHaveLength(3);
    // https://docs.dolby.io/media-apis/reference/media-output-get
    expect(server.requests.some((r) => r.path === `/media/output?url=${encodeURIComponent(body.outputs[0].destination)}`)).toBe(true);
    // the token is cached: asked for once
    expect(server.requests.filter((r) => r.path === '/v1/auth/token')).toHaveLength(1);
  });

  it('enhance submits {input, output, ...options} to /media/enhance', async () => {
    await client().enhance({ inputPath: input, outputPath: output, options: { content: { type: 'music' } }, onProgress: () => undefined, signal: new AbortController().signal });
    // https://docs.dolby.io/media-apis/reference/media-enhance-post
    const submit = server.requests.find((r) => r.method === 'POST' && r.path === '/media/enhance')!;
    const body = JSON.parse(submit.body) as Record<string, unknown>;
    expect(body.content).toEqual({ type: 'music' });
    expect(String(body.input)).toMatch(/^dlb:\/\/in\//);
    expect(String(body.output)).toMatch(/^dlb:\/\/out\//);
    expect(await readFile(output)).toEqual(server.result);
  });

  it('names refused credentials', async () => {
    server.mode = 'auth-refused';
    await expect(client().master({ inputPath: input, outputPath: output, master, onProgress: () => undefined, signal: new AbortController().signal }))
      .rejects.toThrow('The Dolby credentials were refused');
  });

  it("passes on the provider's reason when the job fails", async () => {
    server.mode = 'job-failed';
    await expect(client().master({ inputPath: input, outputPath: output, master, onProgress: () => undefined, signal: new AbortController().signal }))
      .rejects.toThrow('Dolby could not process the audio: The input file has no audio stream');
  });

  it('gives up after the timeout', async () => {
    server.mode = 'never-finishes';
    await expect(client({ timeoutMs: 60_000 * 0.001 }).master({ inputPath: input, outputPath: output, master, onProgress: () => undefined, signal: new AbortController().signal }))
      .rejects.toThrow('Dolby did not finish within 0 minutes');
  });

  it('retries a 5xx', async () => {
    server.mode = 'flaky-5xx';
    await client().master({ inputPath: input, outputPath: output, master, onProgress: () => undefined, signal: new AbortController().signal });
    expect(server.requests.filter((r) => r.method === 'POST' && r.path === '/media/master')).toHaveLength(2);
    expect(await readFile(output)).toEqual(server.result);
  });

  it('stops when aborted', async () => {
    server.mode = 'never-finishes';
    const controller = new AbortController();
    const run = client().master({ inputPath: input, outputPath: output, master, onProgress: () => controller.abort(new Error('cancelled')), signal: controller.signal });
    await expect(run).rejects.toThrow('cancelled');
  });
});

describe('dolbyCloudMaster', () => {
  it('sends the style preset and the intensity loudness target to /media/master', async () => {
    const { dolbyCloudMaster } = await import('./dolby-cloud-master');
    const calls: unknown[] = [];
    const fake = { master: async (input: unknown) => void calls.push(input) } as unknown as DolbyMediaClient;
    const signal = new AbortController().signal;
    const onProgress = () => undefined;
    await dolbyCloudMaster(fake).master({ inputPath: 'a', outputPath: 'b', style: 'warm', intensity: 3, onProgress, signal });
    expect(calls).toEqual([{ inputPath: 'a', outputPath: 'b', onProgress, signal, master: { dynamic_eq: { preset: 'C' }, loudness: { target_level: -11 } } }]);
  });
});
