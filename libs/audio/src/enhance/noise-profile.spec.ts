import { chordProgression, voiceLike } from '../analysis/testing/test-signals';
import { DenoisePass, noiseLikeProfile, NoiseProfilePass, SILENT_LEVEL_DB, stftSizeFor } from './denoise';
import { siSdr } from './si-sdr';
import { NoiseProfileLearner } from './noise-profile';
import { addAtSnr, colouredNoise } from './testing/noise';

describe('NoiseProfileLearner', () => {
  it('keeps the quietest frames however many are offered, and averages them per bin', () => {
    const learner = new NoiseProfileLearner(2, 3);
    // Totals 9, 1, 7, 2, 8, 3: the quietest three are 1, 2 and 3.
    for (const total of [9, 1, 7, 2, 8, 3]) learner.offer(Float32Array.from([total, 10 * total]), 0, total, Float32Array.from([0, 0]), 0);
    expect(learner.frames).toBe(6);
    expect(learner.heldFrames).toBe(3);
    expect([...learner.profile()]).toEqual([2, 20]);
  });

  it('reads a frame from an offset into a larger grid', () => {
    const learner = new NoiseProfileLearner(2, 1);
    learner.offer(Float32Array.from([5, 5, 1, 2, 9, 9]), 2, 3, Float32Array.from([7, 8, 9]), 1);
    expect([...learner.profile()]).toEqual([1, 2]);
  });

  it('measures spread and frame-to-frame persistence per bin: noise-like, steady and continuing bins', () => {
    const learner = new NoiseProfileLearner(2, 4);
    // Bin 0 jumps around with no relation to the frame before; bin 1 is the frame before's value halved (a decay).
    const frames: Array<[number, number, number, number]> = [[1, 8, 3, 16], [3, 2, 1, 4], [0.5, 6, 2, 12], [2.5, 4, 0.5, 8]];
    for (const [b0, b1, before0, before1] of frames) learner.offer(Float32Array.from([b0, b1]), 0, b0 + b1, Float32Array.from([before0, before1]), 0);
    const { mean, variation, persistence } = learner.moments();
    expect(mean[0]).toBeCloseTo(1.75, 6);
    expect(mean[1]).toBeCloseTo(5, 6);
    expect(variation[1]).toBeCloseTo(Math.sqrt(5) / 5, 5);
    expect(persistence[1]).toBeCloseTo(1, 5);
    expect(persistence[0]).toBeLessThan(0.5);
  });
});

/** Mean power (dB) of a profile over bins whose centre frequency lies in [lowHz, highHz). */
function bandDb(profile: Float32Array, size: number, sampleRate: number, lowHz: number, highHz: number): number {
  let sum = 0;
  let count = 0;
  for (let k = 0; k < profile.length; k++) {
    const hz = (k * sampleRate) / size;
    if (hz >= lowHz && hz < highHz) {
      sum += profile[k];
      count++;
    }
  }
  return 10 * Math.log10(sum / count);
}

/** Speech in phrases: 1.5 s spoken, then 0.5 s of pause (the voice muted, as between a singer's lines). */
function phrases(voice: { sampleRate: number; left: Float32Array; right: Float32Array }) {
  const period = 2 * voice.sampleRate;
  for (let i = 0; i < voice.left.length; i++) {
    if (i % period >= 1.5 * voice.sampleRate) {
      voice.left[i] = 0;
      voice.right[i] = 0;
    }
  }
  return voice;
}

function learn(audio: { sampleRate: number; left: Float32Array; right: Float32Array }, chunk = 4096) {
  const pass = new NoiseProfilePass(2, audio.sampleRate, audio.left.length);
  for (let at = 0; at < audio.left.length; at += chunk) pass.push([audio.left.subarray(at, at + chunk), audio.right.subarray(at, at + chunk)]);
  return pass.end();
}

describe('NoiseProfilePass', () => {
  const sampleRate = 22050;
  const size = stftSizeFor(sampleRate);

  it('learns pink noise’s slope under speech from the pauses between phrases: the same profile as from the noise alone', () => {
    const noise = colouredNoise('pink', 6, 0.02, sampleRate, 5);
    const noisy = addAtSnr(phrases(voiceLike('spoken', 6, sampleRate)), noise, 5);
    const fromNoisy = learn(noisy);
    const fromNoise = learn(noise);
    // Pink noise falls 3 dB per octave: 250–500 Hz lies ~12 dB above 4–8 kHz.
    const slope = bandDb(fromNoise.pairs[0], size, sampleRate, 250, 500) - bandDb(fromNoise.pairs[0], size, sampleRate, 4000, 8000);
    expect(slope).toBeGreaterThan(10);
    expect(slope).toBeLessThan(14);
    for (const [low, high] of [[100, 250], [250, 500], [500, 1000], [1000, 2000], [2000, 4000], [4000, 8000]]) {
      const difference = bandDb(fromNoisy.pairs[0], size, sampleRate, low, high) - bandDb(fromNoise.pairs[0], size, sampleRate, low, high);
      expect(Math.abs(difference)).toBeLessThan(1.5);
    }
    // The level: RMS 0.02 is −34 dBFS (the quietest tenth of pure noise's frames reads a little under its mean).
    expect(Math.abs(fromNoise.levelDb + 34)).toBeLessThan(1);
    expect(Math.abs(fromNoisy.levelDb + 34)).toBeLessThan(1);
  });

  it('does not learn from digital silence or the padded edges: a muted stretch beside hiss still teaches the hiss', () => {
    const noise = colouredNoise('white', 4, 0.01, sampleRate, 9);
    const muted = { sampleRate, left: new Float32Array(8 * sampleRate), right: new Float32Array(8 * sampleRate) };
    muted.left.set(noise.left, 4 * sampleRate);
    muted.right.set(noise.right, 4 * sampleRate);
    const profile = learn(muted);
    expect(profile.levelDb).toBeCloseTo(-40, 0);
    expect(profile.frames).toBeGreaterThan(10);
  });

  it('learns one profile per channel pair, and mono as a pair with silence', () => {
    const noise = colouredNoise('white', 2, 0.01, sampleRate, 3);
    const pass = new NoiseProfilePass(3, sampleRate, noise.left.length);
    pass.push([noise.left, noise.right, noise.left]);
    const profile = pass.end();
    expect(profile.pairs).toHaveLength(2);
    expect(bandDb(profile.pairs[0], size, sampleRate, 100, 8000) - bandDb(profile.pairs[1], size, sampleRate, 100, 8000)).toBeCloseTo(3, 0);
    expect(profile.levelDb).toBeCloseTo(-40, 0);
  });
});

describe('noiseLikeProfile', () => {
  const bins = 1025;
  const filled = (value: number) => new Float32Array(bins).fill(value);
  /** Statistics of noise: spread like its mean, drawn afresh each frame. */
  const noiseLike = (mean = filled(2)) => ({ mean, variation: filled(1), persistence: filled(0.1) });

  it('keeps a profile whose bins behave like noise (spread about its mean, new every frame)', () => {
    const moments = noiseLike();
    expect([...noiseLikeProfile(moments)]).toEqual([...moments.mean]);
    // Independent noise in the two channels spreads less.
    expect([...noiseLikeProfile({ ...moments, variation: filled(0.7) })]).toEqual([...moments.mean]);
  });

  it('drops bins that come and go like music (CV 2 and more) or continue the frame before (a decay, a held note)', () => {
    expect(Math.max(...noiseLikeProfile({ ...noiseLike(), variation: filled(2.5) }))).toBe(0);
    expect(Math.max(...noiseLikeProfile({ ...noiseLike(), persistence: filled(0.9) }))).toBe(0);
  });

  it('drops the whole profile when only scattered bins look like noise, and a run of music-like bins in a noisy one', () => {
    // One bin in five looks like noise: not enough of the spectrum.
    const scattered = filled(3);
    for (let k = 0; k < bins; k += 5) scattered[k] = 1;
    expect(Math.max(...noiseLikeProfile({ ...noiseLike(), variation: scattered }))).toBe(0);
    const mostly = filled(1);
    mostly.fill(4, 100, 120);
    const profile = noiseLikeProfile({ ...noiseLike(), variation: mostly });
    expect(profile[110]).toBe(0);
    expect(profile[50]).toBe(2);
    expect(profile[500]).toBe(2);
  });

  it('cuts peaks down to the smooth floor around them (partials, hum), and keeps a sloping floor as it is', () => {
    const peaked = filled(1);
    peaked[300] = 1000;
    const profile = noiseLikeProfile(noiseLike(peaked));
    expect(profile[300]).toBeCloseTo(2, 5);
    expect(profile[299]).toBe(1);
    // Pink-like: falling 3 dB per octave, no bin above its neighbourhood's median by more than the allowance.
    const pink = Float32Array.from({ length: bins }, (_, k) => 1 / Math.max(1, k));
    const kept = noiseLikeProfile(noiseLike(pink));
    for (let k = 2; k < bins; k++) expect(kept[k]).toBeCloseTo(pink[k], 6);
  });
});

describe('NoiseProfilePass on music without pauses', () => {
  /** Learns from `music` and denoises it; returns the output's SI-SDR against it and the profile's level. */
  function roundTrip(music: { sampleRate: number; left: Float32Array; right: Float32Array }) {
    const profile = learn(music);
    const pass = new DenoisePass(2, profile);
    const [left, right] = pass.push([music.left, music.right]);
    const [restLeft, restRight] = pass.end();
    const out = { sampleRate: music.sampleRate, left: Float32Array.from([...left, ...restLeft]), right: Float32Array.from([...right, ...restRight]) };
    return { sdr: siSdr(music, out), levelDb: profile.levelDb };
  }

  it('learns no profile from soft music that continues or comes and goes (a drone with a tremolo, a swell), leaving it untouched', () => {
    const sampleRate = 22050;
    const length = 8 * sampleRate;
    const music = { sampleRate, left: new Float32Array(length), right: new Float32Array(length) };
    for (let i = 0; i < length; i++) {
      const t = i / sampleRate;
      // A chord whose level swells and fades every 2 s, with a 5 Hz tremolo: its quietest frames are still music.
      const level = 0.05 + 0.2 * (0.5 - 0.5 * Math.cos(Math.PI * t)) * (1 + 0.3 * Math.sin(2 * Math.PI * 5 * t));
      const chord = [220, 277.2, 329.6, 440].reduce((sum, f, n) => sum + Math.sin(2 * Math.PI * f * t + n) / (n + 1), 0);
      music.left[i] = level * chord;
      music.right[i] = level * chord;
    }
    const { sdr, levelDb } = roundTrip(music);
    expect(levelDb).toBeLessThan(-60);
    expect(sdr).toBeGreaterThan(40);
  });

  it('keeps plucked chords within 25 dB SI-SDR (their decaying tails read partly as noise: the limit of telling them apart)', () => {
    const music = chordProgression({ tonicPitchClass: 2, mode: 'minor', seconds: 8, sampleRate: 22050, secondsPerChord: 1 });
    expect(roundTrip(music).sdr).toBeGreaterThan(25);
  });

  it('learns hiss under the same chords when they rest now and then, and holds back when they never do', () => {
    const sampleRate = 22050;
    const music = chordProgression({ tonicPitchClass: 2, mode: 'minor', seconds: 8, sampleRate, secondsPerChord: 1 });
    const hiss = colouredNoise('white', 8, 0.01, sampleRate, 21);
    // No rests: the quiet frames hold the chords' tails as well as the hiss; that profile is not trusted.
    expect(learn(addAtSnr(music, hiss, 10)).levelDb).toBe(SILENT_LEVEL_DB);
    // A rest of half a second after every second chord: those frames are the hiss alone (RMS 0.01, −40 dBFS).
    const resting = { sampleRate, left: music.left.slice(), right: music.right.slice() };
    for (let i = 0; i < resting.left.length; i++) {
      if (i % (2 * sampleRate) >= 1.5 * sampleRate) {
        resting.left[i] = 0;
        resting.right[i] = 0;
      }
    }
    const noisy = { sampleRate, left: resting.left.map((v, i) => v + hiss.left[i]), right: resting.right.map((v, i) => v + hiss.right[i]) };
    expect(Math.abs(learn(noisy).levelDb + 40)).toBeLessThan(1.5);
  });
});
