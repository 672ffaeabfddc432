import type { Consonant, Vowel, VoiceType } from '../parts/melody';
import type { Rng } from '../random';
import { CONSONANT_NOISE, FORMANT_BANDWIDTHS, INHALE, murmurFormants, vowelFormants, type FormantSet, type NoiseShape } from './formants';
import type { VoiceCharacter } from './profiles';

/** A note placed in time, in seconds. */
export interface SungNote {
  start: number;
  end: number;
  pitch: number;
  velocity: number;
  consonant: Consonant | null;
  vowel: Vowel;
  slur: boolean;
}

export interface SingerOptions {
  sampleRate: number;
  frames: number;
  voice: VoiceType;
  rng: Rng;
  /** Another singer's vocal tract and habits; absent = the development set's singer. */
  character?: VoiceCharacter;
}


/** Control values that change slowly (formants, noise filter) are updated once per block. */
const BLOCK = 32;
const NOISE_SHAPES: NoiseShape[] = [...Object.values(CONSONANT_NOISE), INHALE];
const INHALE_INDEX = NOISE_SHAPES.length - 1;
const HIGH_BRANCH_GAIN_DEV = 0.35;
const PRESENCE_GAIN_DEV = 1.5;
const PRE_EMPHASIS = 0.8;

/** The development set's singer (ranges are drawn per track). */
const DEV_CHARACTER: Omit<VoiceCharacter, 'name' | 'vowels' | 'murmurScale' | 'rangeCentre'> = {
  bandwidths: FORMANT_BANDWIDTHS,
  vibratoCents: [28, 45],
  vibratoHz: [5.2, 5.9],
  vibratoOnsetSeconds: 0.18,
  closing: [0.16, 0.22],
  breathiness: [0.04, 0.08],
  jitter: 0.005,
  shimmer: 0.06,
  driftCents: 12,
  scoopSemitones: 0.4,
  presenceGain: PRESENCE_GAIN_DEV,
  highBranchGain: HIGH_BRANCH_GAIN_DEV,
};

/**
 * Source–filter singing voice: a band-limited glottal-flow-derivative pulse (Rosenberg shape,
 * polyBLEP at closure) with vibrato, drift, jitter and shimmer, through five cascaded formant
 * resonators that glide between vowels; aspiration and consonant noise added on top.
 * Returns the dry mono voice.
 */
export function sing(notes: SungNote[], opts: SingerOptions): Float32Array {
  const controls = buildControls(notes, opts);
  return renderVoice(controls, opts);
}

interface Controls {
  /** Per sample: pitch in MIDI semitones, voiced amplitude, vibrato depth (cents), consonant noise amplitude. */
  pitch: Float32Array;
  amp: Float32Array;
  vibrato: Float32Array;
  noise: Float32Array;
  /** Per block: target formants (5 per block) and which noise shape is sounding (-1 none). */
  formants: Float32Array;
  noiseShape: Int8Array;
}

function character(opts: SingerOptions): Omit<VoiceCharacter, 'name' | 'rangeCentre'> {
  const { voice } = opts;
  return opts.character ?? { ...DEV_CHARACTER, vowels: null, murmurScale: voice === 'female' ? 1.12 : 1 };
}

function buildControls(notes: SungNote[], opts: SingerOptions): Controls {
  const { sampleRate: sr, frames, voice, rng } = opts;
  const who = character(opts);
  const vowelOf = (vowel: Vowel) => (who.vowels ? who.vowels[vowel] : vowelFormants(voice, vowel));
  const blocks = Math.ceil(frames / BLOCK);
  const c: Controls = {
    pitch: new Float32Array(frames).fill(notes[0]?.pitch ?? 60),
    amp: new Float32Array(frames),
    vibrato: new Float32Array(frames),
    noise: new Float32Array(frames),
    formants: new Float32Array(blocks * 5),
    noiseShape: new Int8Array(blocks).fill(-1),
  };
  const firstVowel = vowelOf(notes[0]?.vowel ?? 'a');
  for (let b = 0; b < blocks; b++) c.formants.set(firstVowel, b * 5);

  const vibratoCents = rng.range(who.vibratoCents[0], who.vibratoCents[1]);
  const at = (seconds: number) => Math.max(0, Math.min(frames, Math.round(seconds * sr)));
  const setFormants = (from: number, to: number, f: FormantSet) => {
    for (let b = Math.floor(from / BLOCK); b < Math.min(blocks, Math.ceil(to / BLOCK)); b++) c.formants.set(f, b * 5);
  };

  notes.forEach((note, i) => {
    const prev = notes[i - 1];
    const next = notes[i + 1];
    const legatoIn = note.slur && prev !== undefined && note.start - prev.end < 0.03;
    const legatoOut = next !== undefined && next.slur && next.start - note.end < 0.03;
    const level = note.velocity / 127;
    const s0 = at(note.start);
    const s1 = at(note.end);
    const attack = legatoIn ? 0 : 0.03 * sr;
    const release = legatoOut ? 0 : 0.09 * sr;
    const stop = Math.min(frames, s1 + Math.round(release));
    const shape = note.consonant && !legatoIn ? CONSONANT_NOISE[note.consonant] : null;
    // Singers put the consonant before the beat so the vowel lands on it.
    const consStart = shape ? Math.max(0, s0 - Math.round(shape.seconds * 0.7 * sr)) : s0;
    const murmur = shape && shape.voicing > 0 ? murmurFormants(note.consonant!, who.murmurScale) : null;

    // Voiced amplitude.
    for (let s = murmur ? consStart : s0; s < stop; s++) {
      let env: number;
      if (s < s0) env = shape!.voicing * Math.min(1, (s - consStart) / (0.01 * sr));
      else {
        const rise = attack > 0 ? Math.min(1, (s - s0) / attack) : 1;
        env = murmur ? shape!.voicing + (1 - shape!.voicing) * rise : rise;
        if (s > s1) env *= 1 - (s - s1) / release;
      }
      c.amp[s] = Math.max(c.amp[s], env * level);
    }

    // Pitch: glide from the previous note when slurred, otherwise a small scoop up into the note;
    // a slight fall as the note releases.
    const pitchFrom = legatoIn ? s0 : murmur ? consStart : Math.max(0, s0 - Math.round(0.02 * sr));
    for (let s = pitchFrom; s < stop; s++) {
      const t = (s - s0) / sr;
      let p: number;
      if (legatoIn) p = prev.pitch + (note.pitch - prev.pitch) * smoothstep(Math.min(1, t / 0.07));
      else p = note.pitch - who.scoopSemitones * Math.exp(-Math.max(0, t) / 0.035);
      if (s > s1 && release > 0) p -= 0.5 * ((s - s1) / release) ** 2;
      c.pitch[s] = p;
      // Vibrato blooms after the onset, as trained pop singers do on held notes.
      c.vibrato[s] = vibratoCents * Math.min(1, Math.max(0, (t - who.vibratoOnsetSeconds) / 0.35));
    }

    // Formant targets: murmur during a voiced consonant, then the vowel.
    if (murmur) setFormants(consStart, s0 + Math.round(0.02 * sr), murmur);
    setFormants(murmur ? s0 + Math.round(0.02 * sr) : Math.max(0, s0 - Math.round(0.01 * sr)), stop, vowelOf(note.vowel));

    // Consonant noise.
    if (shape && shape.level > 0) {
      const len = Math.round(shape.seconds * sr);
      writeNoise(c, consStart, len, shape, NOISE_SHAPES.indexOf(shape), level, frames);
    }
    // An in-breath before each phrase.
    const gapBefore = prev ? note.start - prev.end : note.start;
    if (!legatoIn && gapBefore > 0.45) {
      const end = consStart - Math.round(0.06 * sr);
      const len = Math.round(INHALE.seconds * sr);
      const start = Math.max(prev ? at(prev.end + 0.1) : 0, end - len);
      if (end - start > 0.08 * sr) writeNoise(c, start, end - start, INHALE, INHALE_INDEX, 1, frames);
    }
  });
  return c;
}

function writeNoise(c: Controls, start: number, len: number, shape: NoiseShape, shapeIndex: number, level: number, frames: number): void {
  for (let k = 0; k < len && start + k < frames; k++) {
    const x = k / len;
    // Plosives: a sharp burst then a decaying aspiration; fricatives and breaths swell and fade.
    const env = shape.burst ? (x < 0.25 ? 1 : 0.35 * (1 - x) / 0.75) : Math.sin(Math.PI * x) ** 0.7;
    c.noise[start + k] = Math.max(c.noise[start + k], shape.level * env * (0.6 + 0.4 * level));
  }
  for (let b = Math.floor(start / BLOCK); b < Math.ceil((start + len) / BLOCK); b++) if (b < c.noiseShape.length) c.noiseShape[b] = shapeIndex;
}

function renderVoice(c: Controls, opts: SingerOptions): Float32Array {
  const { sampleRate: sr, frames, rng } = opts;
  const who = character(opts);
  const out = new Float32Array(frames);
  // Singer character: vibrato rate, glottal closing time (brightness), breathiness.
  const vibratoHz = rng.range(who.vibratoHz[0], who.vibratoHz[1]);
  const closing = rng.range(who.closing[0], who.closing[1]);
  const opening = 0.4;
  const closure = opening + closing;
  const step = Math.PI / (2 * closing);
  const breathiness = rng.range(who.breathiness[0], who.breathiness[1]);

  const formants = Float64Array.from(c.formants.subarray(0, 5));
  const coefA = new Float64Array(5);
  const coefB = new Float64Array(5);
  const coefC = new Float64Array(5);
  const y1 = new Float64Array(5);
  const y2 = new Float64Array(5);
  const glide = 1 - Math.exp(-BLOCK / (0.025 * sr));

  let noiseShape = -2;
  let nb0 = 0, nb1 = 0, nb2 = 0, na1 = 0, na2 = 0;
  let nx1 = 0, nx2 = 0, ny1 = 0, ny2 = 0;

  let phase = 0;
  let periodScale = 1;
  let shimmer = 1;
  let vibratoPhase = 0;
  let drift = 0;
  let driftTarget = 0;
  const driftAlpha = 1 - Math.exp(-1 / (0.12 * sr));
  const driftEvery = Math.round(0.3 * sr);
  // Parallel high branch (≈ F6 and above): the cascade alone leaves nothing over ~5 kHz, real voices do.
  const [hb0, , hb2, ha1, ha2] = bandPass(7000, 5000, sr);
  let hx1 = 0, hx2 = 0, hy1 = 0, hy2 = 0;
  let xPrev = 0;
  const [pb0, , pb2, pa1, pa2] = bandPass(3000, 2200, sr);
  let px1 = 0, px2 = 0, py1 = 0, py2 = 0;
  let hp = 0;
  let hpPrev = 0;
  const hpCoef = Math.exp((-2 * Math.PI * 70) / sr);

  for (let block = 0; block * BLOCK < frames; block++) {
    for (let k = 0; k < 5; k++) {
      formants[k] += (c.formants[block * 5 + k] - formants[k]) * glide;
      const bw = who.bandwidths[k];
      coefC[k] = -Math.exp((-2 * Math.PI * bw) / sr);
      coefB[k] = 2 * Math.exp((-Math.PI * bw) / sr) * Math.cos((2 * Math.PI * formants[k]) / sr);
      coefA[k] = 1 - coefB[k] - coefC[k];
    }
    if (c.noiseShape[block] !== noiseShape) {
      noiseShape = c.noiseShape[block];
      const shape = NOISE_SHAPES[Math.max(0, noiseShape)];
      [nb0, nb1, nb2, na1, na2] = bandPass(shape.centreHz, shape.bandwidthHz, sr);
    }
    const end = Math.min(frames, (block + 1) * BLOCK);
    for (let s = block * BLOCK; s < end; s++) {
      if (s % driftEvery === 0) driftTarget = rng.range(-who.driftCents, who.driftCents);
      drift += (driftTarget - drift) * driftAlpha;
      vibratoPhase += vibratoHz / sr;
      const cents = c.vibrato[s] * Math.sin(2 * Math.PI * vibratoPhase) + drift;
      const f0 = 440 * 2 ** ((c.pitch[s] - 69 + cents / 100) / 12) * periodScale;
      const dt = f0 / sr;
      phase += dt;
      if (phase >= 1) {
        phase -= 1;
        // Per-period jitter and shimmer: what keeps a synthetic voice from sounding like a buzzer.
        periodScale = 1 + rng.range(-who.jitter, who.jitter);
        shimmer = 1 + rng.range(-who.shimmer, who.shimmer);
      }
      const amp = c.amp[s];
      const white = rng.next() * 2 - 1;
      let x = 0;
      if (amp > 0) {
        const pulse = glottalDerivative(phase, dt, opening, closing, closure, step) / step;
        const aspiration = white * breathiness * (phase < closure ? 1 : 0.3);
        x = amp * (pulse * shimmer + aspiration);
      }
      const high = hb0 * x + hb2 * hx2 - ha1 * hy1 - ha2 * hy2;
      hx2 = hx1;
      hx1 = x;
      hy2 = hy1;
      hy1 = high;
      for (let k = 0; k < 5; k++) {
        const y = coefA[k] * x + coefB[k] * y1[k] + coefC[k] * y2[k];
        y2[k] = y1[k];
        y1[k] = y;
        x = y;
      }
      const nIn = rng.next() * 2 - 1;
      const ny = nb0 * nIn + nb1 * nx1 + nb2 * nx2 - na1 * ny1 - na2 * ny2;
      nx2 = nx1;
      nx1 = nIn;
      ny2 = ny1;
      ny1 = ny;
      // Pre-emphasis (+6 dB/oct above ~1 kHz): lip radiation and the presence a vocal chain adds.
      const voiced = x - PRE_EMPHASIS * xPrev;
      xPrev = x;
      // Presence: +8 dB around 3 kHz, the "singer's formant" region a produced vocal leans on.
      const presence = pb0 * voiced + pb2 * px2 - pa1 * py1 - pa2 * py2;
      px2 = px1;
      px1 = voiced;
      py2 = py1;
      py1 = presence;
      const v = voiced + who.presenceGain * presence + who.highBranchGain * high + ny * c.noise[s];
      // 70 Hz high-pass: no rumble or DC from the source model.
      hp = hpCoef * (hp + v - hpPrev);
      hpPrev = v;
      out[s] = hp;
    }
  }
  return out;
}

/** Rosenberg glottal flow derivative over one period; polyBLEP smooths the step at closure. */
function glottalDerivative(p: number, dt: number, opening: number, closing: number, closure: number, step: number): number {
  let v = 0;
  if (p < opening) v = (Math.PI / (2 * opening)) * Math.sin((Math.PI * p) / opening);
  else if (p < closure) v = -step * Math.sin(((Math.PI / 2) * (p - opening)) / closing);
  let t = p - closure;
  if (t < 0) t += 1;
  return v + (step / 2) * polyBlep(t, dt);
}

function polyBlep(t: number, dt: number): number {
  if (t < dt) {
    const x = t / dt;
    return x + x - x * x - 1;
  }
  if (t > 1 - dt) {
    const x = (t - 1) / dt;
    return x * x + x + x + 1;
  }
  return 0;
}

function smoothstep(x: number): number {
  return x * x * (3 - 2 * x);
}

/** RBJ band-pass (0 dB peak): [b0, b1, b2, a1, a2]. */
function bandPass(centreHz: number, bandwidthHz: number, sr: number): [number, number, number, number, number] {
  const w = (2 * Math.PI * Math.min(centreHz, sr * 0.45)) / sr;
  const q = centreHz / bandwidthHz;
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha;
  return [alpha / a0, 0, -alpha / a0, (-2 * Math.cos(w)) / a0, (1 - alpha) / a0];
}
