import { execFileSync } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANDR_API_KEY, startLandrContractServer, type LandrContractServer } from '../../../../test/support/provider-contract/landr-contract-server';
import { JobScratch } from '../scratch/job-scratch';
import { CloudMasteringProvider } from './cloud-mastering.provider';
import { LandrMasteringClient } from './landr-mastering.client';

// Each case runs ffmpeg several times: 2–3 s alone, several times that beside the other suites on 2 cores.
jest.setTimeout(30_000);

describe('CloudMasteringProvider (LANDR client, contract server)', () => {
  let server: LandrContractServer;
  let dir: string;
  let tone: string;
  let loud: string;

  beforeEach(async () => {
    server = await startLandrContractServer();
    dir = await mkdtemp(join(tmpdir(), 'cloud-master-spec-'));
    tone = join(dir, 'tone.wav');
    loud = join(dir, 'loud.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-af', 'volume=-20dB', '-ac', '2', tone]);
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-af', 'volume=-6dB', '-ac', '2', loud]);
    server.result = await readFile(loud);
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const provider = () =>
    new CloudMasteringProvider('landr', new LandrMasteringClient({ apiKey: LANDR_API_KEY, baseUrl: server.url, timeoutMs: 60_000, pollMs: 5, maxPollMs: 20, retries: 3 }), new JobScratch(join(dir, 'work')));

  it('mixes locally, masters in the cloud, measures before and after, and disposes', async () => {
    const progress: number[] = [];
    const result = await provider().masterMix({ stems: [{ input: tone, gainDb: 0 }], style: 'warm', intensity: 2, onProgress: (f) => progress.push(f), signal: new AbortController().signal });
    expect(await readFile(result.path)).toEqual(server.result);
    expect(result.contentType).toBe('audio/wav');
    expect(result.after.integratedLufs - result.before.integratedLufs).toBeGreaterThan(10);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    await result.dispose();
    await expect(access(result.path)).rejects.toThrow();
  });

  it('masters each part and their sum for a set', async () => {
    const result = await provider().masterSet({
      parts: [{ name: 'rhythm.wav', stems: [{ input: tone, gainDb: 0 }] }, { name: 'melodic.wav', stems: [{ input: tone, gainDb: -3 }] }],
      sum: 'sum.wav', style: 'balanced', intensity: 2, onProgress: () => undefined, signal: new AbortController().signal,
    });
    expect(result.files.map((f) => f.name)).toEqual(['rhythm.wav', 'melodic.wav', 'sum.wav']);
    expect(server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/masters')).toHaveLength(3);
    await result.dispose();
  });

  it('removes its scratch files when the provider fails', async () => {
    server.mode = 'job-failed';
    await expect(provider().masterMix({ stems: [{ input: tone, gainDb: 0 }], style: 'warm', intensity: 2, onProgress: () => undefined, signal: new AbortController().signal }))
      .rejects.toThrow('LANDR could not master the audio: Audio is silent');
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(join(dir, 'work'))).toEqual([]);
  });
});
