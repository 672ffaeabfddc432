import { execFileSync } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOLBY_APP_KEY, DOLBY_APP_SECRET, startDolbyContractServer, type DolbyContractServer } from '../../../../test/support/provider-contract/dolby-contract-server';
import { LocalEnhanceProvider } from '../enhance/local-enhance.provider';
import { JobScratch } from '../scratch/job-scratch';
import { configuredEnhanceProvider, configuredMasteringProvider, type ProviderEnvironment } from './configured-providers';
import { DolbyEnhanceProvider, dolbyEnhanceOptions } from './dolby-enhance.provider';

// Each case runs ffmpeg several times: a few seconds beside the other suites on 2 cores.
jest.setTimeout(30_000);

const probe = (path: string) =>
  JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path], { encoding: 'utf8' })).streams[0] as { codec_name: string; bits_per_raw_sample?: string };

describe('Dolby.io enhancement, switched on by configuration (contract server)', () => {
  let server: DolbyContractServer;
  let dir: string;
  let stem: string;
  let scratch: JobScratch;

  beforeEach(async () => {
    server = await startDolbyContractServer();
    dir = await mkdtemp(join(tmpdir(), 'dolby-enhance-spec-'));
    stem = join(dir, 'vocals.flac');
    const answer = join(dir, 'answer.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-af', 'volume=-26dB', '-ac', '2', '-c:a', 'flac', stem]);
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-af', 'volume=-12dB', '-ac', '2', answer]);
    // What Dolby hands back: a louder version of the stem, as a WAV.
    server.result = await readFile(answer);
    scratch = new JobScratch(join(dir, 'work'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const settings = (overrides: Partial<ProviderEnvironment> = {}): ProviderEnvironment => ({
    DOLBY_APP_KEY,
    DOLBY_APP_SECRET,
    DOLBY_API_URL: server.url,
    DOLBY_AUTH_URL: server.url,
    ...overrides,
  });
  const local = () => new LocalEnhanceProvider(scratch);
  const enhance = (provider = configuredEnhanceProvider(settings(), scratch, local())) => {
    const progress: number[] = [];
    const run = provider.enhanceStem({
      input: stem,
      enhancements: { noiseReduction: true, loudnessNormalization: true, speechEnhancement: false },
      onProgress: (f) => progress.push(f),
      signal: new AbortController().signal,
    });
    return { run, progress };
  };

  it('with the key and secret set, enhances through Dolby: the choices sent as /media/enhance options, the answer kept as 24-bit FLAC, measured here', async () => {
    const provider = configuredEnhanceProvider(settings(), scratch, local());
    expect(provider).toBeInstanceOf(DolbyEnhanceProvider);
    expect(provider.name).toBe('dolby');
    const { run, progress } = enhance(provider);
    const result = await run;

    const submit = server.requests.find((r) => r.method === 'POST' && r.path === '/media/enhance');
    const body = JSON.parse(submit?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({
      input: expect.stringMatching(/^dlb:\/\/in\/.+\.wav$/),
      output: expect.stringMatching(/^dlb:\/\/out\/.+\.wav$/),
      content: { type: 'music' },
      audio: { noise: { reduction: { enable: true } }, loudness: { enable: true, target_level: -16, peak_limit: -1 }, speech: { sibilance: { reduction: { enable: false } } } },
    });
    // The stem was uploaded as a WAV Dolby can read.
    const [uploaded] = [...server.uploads.values()];
    expect(uploaded.subarray(0, 4).toString()).toBe('RIFF');

    expect(result.contentType).toBe('audio/flac');
    expect(probe(result.path)).toMatchObject({ codec_name: 'flac', bits_per_raw_sample: '24' });
    // ffmpeg's sine is −18 dBFS, −26 dB more: about −48 LUFS before; Dolby's answer is 14 dB louder.
    expect(result.before.integratedLufs).toBeCloseTo(-47.8, 0);
    expect(result.after.integratedLufs - result.before.integratedLufs).toBeGreaterThan(12);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    await result.dispose();
    await expect(access(result.path)).rejects.toThrow();
  });

  it('speech enhancement asks Dolby for its voice treatment', () => {
    expect(dolbyEnhanceOptions({ noiseReduction: false, loudnessNormalization: false, speechEnhancement: true })).toMatchObject({
      content: { type: 'voice_over' },
      audio: { noise: { reduction: { enable: false } }, loudness: { enable: false }, filter: { high_pass: { enable: true } }, speech: { sibilance: { reduction: { enable: true } } } },
    });
  });

  it('a failed Dolby job or refused credentials fail the stem with Dolby\'s reason and leave no scratch files', async () => {
    server.mode = 'job-failed';
    await expect(enhance().run).rejects.toThrow('Dolby could not process the audio: The input file has no audio stream');
    server.mode = 'auth-refused';
    await expect(enhance(configuredEnhanceProvider(settings({ DOLBY_APP_SECRET: 'wrong' }), scratch, local())).run).rejects.toThrow('The Dolby credentials were refused');
    expect(await readdir(join(dir, 'work'))).toEqual([]);
  });

  it('without credentials both kinds stay on our own engines; with them mastering goes to the configured cloud', () => {
    const localEnhance = local();
    expect(configuredEnhanceProvider({ DOLBY_API_URL: server.url, DOLBY_AUTH_URL: server.url }, scratch, localEnhance)).toBe(localEnhance);
    const localMaster = { name: 'local' as const, masterMix: jest.fn(), masterSet: jest.fn() };
    expect(configuredMasteringProvider({ DOLBY_API_URL: server.url, DOLBY_AUTH_URL: server.url }, scratch, localMaster)).toBe(localMaster);
    expect(configuredMasteringProvider(settings(), scratch, localMaster).name).toBe('dolby');
    expect(configuredMasteringProvider(settings({ LANDR_API_KEY: 'k', LANDR_API_URL: 'https://partner.example' }), scratch, localMaster).name).toBe('landr');
    expect(() => configuredMasteringProvider({ ...settings(), DOLBY_APP_SECRET: undefined }, scratch, localMaster)).toThrow(/DOLBY_APP_SECRET is required/);
  });
});
