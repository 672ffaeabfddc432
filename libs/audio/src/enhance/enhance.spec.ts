import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudio, probeMedia } from '../io/ffmpeg';
import { runFfmpeg } from '../mastering/tool';
import { enhanceAudioFile, ENHANCE_TARGET_LUFS, ENHANCE_TRUE_PEAK_MAX_DBTP } from './enhance';
import { siSdr } from './si-sdr';

/**
 * A voice-like test signal: a 140 Hz harmonic tone with 5 Hz vibrato, its harmonics shaped by two formant-like
 * resonances, gated into 0.35 s "syllables" with short pauses (the quiet parts the denoiser learns from).
 */
async function makeVoice(path: string, seconds: number): Promise<void> {
  // The phase of a 140 Hz fundamental with ±3 % vibrato at 5 Hz.
  const phase = `2*PI*(140*t-0.03*140/(2*PI*5)*cos(2*PI*5*t))`;
  const harmonics = [1, 2, 3, 4, 5, 6, 8, 10, 14, 18].map((k) => `sin(${k}*${phase})/${k}`).join('+');
  const gate = 'if(lt(mod(t,0.5),0.35),sin(PI*mod(t,0.5)/0.35),0)';
  await runFfmpeg({
    args: [
      '-f', 'lavfi', '-i', `aevalsrc=exprs='0.3*(${harmonics})*${gate}':s=16000:d=${seconds}`,
      '-af', 'equalizer=f=700:t=q:w=2:g=10,equalizer=f=1800:t=q:w=2:g=8,volume=-6dB',
      '-c:a', 'pcm_f32le', path,
    ],
  });
}

/** The clean signal plus `color` noise `snrDb` below it (RMS over the whole file). */
async function addNoise(clean: string, noisy: string, snrDb: number, color: 'white' | 'pink' = 'white'): Promise<void> {
  const audio = await decodeAudio(clean);
  const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length);
  const noiseFile = `${noisy}.noise.wav`;
  await runFfmpeg({ args: ['-f', 'lavfi', '-i', `anoisesrc=color=${color}:amplitude=0.5:r=16000:d=4:seed=3`, '-c:a', 'pcm_f32le', noiseFile] });
  const gain = rms(audio.left) / Math.pow(10, snrDb / 20) / rms((await decodeAudio(noiseFile)).left);
  await runFfmpeg({
    args: [
      '-i', clean, '-i', noiseFile,
      '-filter_complex', `[1]volume=${gain.toFixed(8)}[n];[0][n]amix=inputs=2:normalize=0:duration=first`, '-c:a', 'pcm_f32le', noisy,
    ],
  });
}

/** The lag (samples, ±2000) at which `estimate` best matches `reference` over the first two seconds. */
function lagOf(reference: Float32Array, estimate: Float32Array): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let lag = -2000; lag <= 2000; lag++) {
    let score = 0;
    for (let i = 2000; i < 34_000; i++) score += reference[i] * (estimate[i + lag] ?? 0);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  return best;
}

describe('enhanceAudioFile', () => {
  let dir: string;
  let clean: string;
  let noisy: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'enhance-spec-'));
    clean = join(dir, 'clean.wav');
    noisy = join(dir, 'noisy.wav');
    await makeVoice(clean, 4);
    await addNoise(clean, noisy, 10);
  });
  afterAll(() => (process.env.KEEP ? console.log(dir) : rm(dir, { recursive: true, force: true })));

  it('reduces noise: SI-SDR improves by a clear margin on a voice-like signal at 10 dB SNR', async () => {
    const output = join(dir, 'denoised.wav');
    const result = await enhanceAudioFile({ input: noisy, output, enhancements: { noiseReduction: true } });
    expect(result.applied).toEqual(['noiseReduction']);
    const reference = await decodeAudio(clean);
    const inputScore = siSdr(reference, await decodeAudio(noisy));
    const outputScore = siSdr(reference, await decodeAudio(output));
    expect(inputScore).toBeGreaterThan(9);
    expect(inputScore).toBeLessThan(11);
    expect(outputScore - inputScore).toBeGreaterThan(5);
  });

  it('reduces coloured (pink) noise as well: SI-SDR improves by more than 4 dB at 5 dB SNR', async () => {
    const pinkNoisy = join(dir, 'pink-noisy.wav');
    await addNoise(clean, pinkNoisy, 5, 'pink');
    const output = join(dir, 'pink-denoised.wav');
    const result = await enhanceAudioFile({ input: pinkNoisy, output, enhancements: { noiseReduction: true } });
    const reference = await decodeAudio(clean);
    const inputScore = siSdr(reference, await decodeAudio(pinkNoisy));
    expect(inputScore).toBeGreaterThan(4);
    expect(inputScore).toBeLessThan(6);
    expect(siSdr(reference, await decodeAudio(output)) - inputScore).toBeGreaterThan(4);
    expect(result.noiseProfile?.frames).toBeGreaterThan(10);
    expect(result.noiseProfile?.fftSize).toBe(1024);
  });

  it('keeps its scratch folder in tmpDir while it works and removes it after', async () => {
    const scratch = join(dir, 'scratch');
    await mkdir(scratch);
    const seen = new Set<string>();
    await enhanceAudioFile({
      input: noisy,
      output: join(dir, 'scratch-out.wav'),
      enhancements: { noiseReduction: true },
      tmpDir: scratch,
      onProgress: () => readdirSync(scratch).forEach((name) => seen.add(name)),
    });
    expect([...seen].some((name) => name.startsWith('stemdeck-enhance-'))).toBe(true);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('keeps the output sample-aligned with the input and its exact length', async () => {
    const output = join(dir, 'aligned.wav');
    await enhanceAudioFile({ input: noisy, output, enhancements: { noiseReduction: true } });
    const reference = await decodeAudio(clean);
    const denoised = await decodeAudio(output);
    expect(denoised.left.length).toBe((await decodeAudio(noisy)).left.length);
    expect(lagOf(reference.left, denoised.left)).toBe(0);
  });

  it('leaves clean audio alone: the output of a clean input scores ≥ 25 dB SI-SDR against it', async () => {
    const output = join(dir, 'clean-out.wav');
    const result = await enhanceAudioFile({ input: clean, output, enhancements: { noiseReduction: true } });
    expect(siSdr(await decodeAudio(clean), await decodeAudio(output))).toBeGreaterThan(25);
    // The pauses are digital silence: nothing is learned from them, the profile is the quietest sounding frames'.
    expect(result.noiseFloorDb).toBeLessThan(-40);
  });

  it('normalises loudness to −16 LUFS ±0.5 with the true peak at or under −1 dBTP', async () => {
    const output = join(dir, 'loud.flac');
    const result = await enhanceAudioFile({ input: noisy, output, enhancements: { loudnessNormalization: true } });
    expect(Math.abs(result.after.integratedLufs - ENHANCE_TARGET_LUFS)).toBeLessThanOrEqual(0.5);
    expect(result.after.truePeakDbtp).toBeLessThanOrEqual(ENHANCE_TRUE_PEAK_MAX_DBTP);
    expect(result.before.integratedLufs).toBeLessThan(-19);
  });

  it('applies speech enhancement alone, and all three together, to valid 24-bit output at the input rate and channels', async () => {
    const speech = join(dir, 'speech.flac');
    const one = await enhanceAudioFile({ input: noisy, output: speech, enhancements: { speechEnhancement: true } });
    expect(one.applied).toEqual(['speechEnhancement']);
    const all = join(dir, 'all.wav');
    const progress: number[] = [];
    const result = await enhanceAudioFile({
      input: noisy, output: all, enhancements: { noiseReduction: true, speechEnhancement: true, loudnessNormalization: true },
      onProgress: (f) => progress.push(f),
    });
    expect(result.applied).toEqual(['noiseReduction', 'speechEnhancement', 'loudnessNormalization']);
    expect(Math.abs(result.after.integratedLufs - ENHANCE_TARGET_LUFS)).toBeLessThanOrEqual(0.5);
    expect(result.after.truePeakDbtp).toBeLessThanOrEqual(ENHANCE_TRUE_PEAK_MAX_DBTP);
    for (const [path, codec] of [[speech, 'flac'], [all, 'pcm_s24le']] as const) {
      const probe = await probeMedia(path);
      expect(probe.audio).toEqual({ codec, sampleRate: 16000, channels: 1 });
      expect(probe.durationSeconds).toBeCloseTo(4, 1);
    }
    expect(progress.length).toBeGreaterThan(2);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    expect(progress[progress.length - 1]).toBe(1);
  });

  it('rejects bad input with a clear error, and a request with no enhancement', async () => {
    const bad = join(dir, 'bad.wav');
    await writeFile(bad, 'not audio at all');
    await expect(enhanceAudioFile({ input: bad, output: join(dir, 'x.flac'), enhancements: { noiseReduction: true } })).rejects.toThrow(
      /Cannot enhance .*bad\.wav: ffprobe cannot read it/,
    );
    await expect(enhanceAudioFile({ input: noisy, output: join(dir, 'y.flac'), enhancements: {} })).rejects.toThrow(/at least one enhancement/);
  });
});
