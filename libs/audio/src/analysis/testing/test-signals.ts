/**
 * Synthetic test material for the analysis specs: clicks, drum grooves, chords, scales, voice-like sounds, noise.
 * All of it is deterministic (the "noise" is a fixed xorshift sequence), so the specs see the same audio on
 * every run.
 */
import type { StereoAudio } from '../../types';

// Local aliases: inside jest's sandbox every lookup of the global `Math` is an order of magnitude slower, and the
// synthesis loops below make millions of them.
const { sin, exp, min, round, floor, PI } = Math;

export function silence(seconds: number, sampleRate = 44100): StereoAudio {
  const samples = new Float32Array(round(seconds * sampleRate));
  return { sampleRate, left: samples, right: samples.slice() };
}

export function sineTone(frequency: number, seconds: number, amplitude: number, sampleRate = 44100): StereoAudio {
  const samples = new Float32Array(round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i++) samples[i] = amplitude * sin((2 * PI * frequency * i) / sampleRate);
  return { sampleRate, left: samples, right: samples.slice() };
}

/** A fixed pseudo-noise sequence in [−1, 1) (xorshift32): reproducible "noise" for hats, snares and clicks. */
function noiseSequence(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 31 - 1;
  };
}

/** Adds `source` (mono samples) into `target` from `start` on, scaled by `gain`. */
function addAt(target: Float32Array, source: Float32Array, start: number, gain: number): void {
  const begin = round(start);
  for (let i = 0; i < source.length && begin + i < target.length; i++) target[begin + i] += gain * source[i];
}

function decayingNoise(seconds: number, decaySeconds: number, seed: number, sampleRate: number): Float32Array {
  const noise = noiseSequence(seed);
  const out = new Float32Array(round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++) out[i] = noise() * exp(-i / (decaySeconds * sampleRate));
  return out;
}

/** A kick drum: a sine sweeping from 150 Hz down to 50 Hz under a fast decay. */
function kick(sampleRate: number): Float32Array {
  const out = new Float32Array(round(0.25 * sampleRate));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    phase += (2 * PI * (50 + 100 * exp(-t / 0.03))) / sampleRate;
    out[i] = sin(phase) * exp(-t / 0.08);
  }
  return out;
}

/** A snare: a 180 Hz body and a noise burst, both decaying. */
function snareDrum(sampleRate: number): Float32Array {
  const out = decayingNoise(0.2, 0.05, 11, sampleRate);
  for (let i = 0; i < out.length; i++) {
    out[i] += 0.8 * sin((2 * PI * 180 * i) / sampleRate) * exp(-i / (0.04 * sampleRate));
  }
  return out;
}

function toStereo(samples: Float32Array, sampleRate: number): StereoAudio {
  return { sampleRate, left: samples, right: samples.slice() };
}

/** Short noise clicks on every beat. */
export function clickTrack(bpm: number, seconds: number, sampleRate = 44100): StereoAudio {
  const out = new Float32Array(round(seconds * sampleRate));
  const click = decayingNoise(0.02, 0.004, 7, sampleRate);
  for (let t = 0; t < seconds; t += 60 / bpm) addAt(out, click, t * sampleRate, 0.5);
  return toStereo(out, sampleRate);
}

export interface GrooveOptions {
  bpm: number;
  beatsPerBar: 3 | 4;
  seconds: number;
  sampleRate?: number;
  /** Peak gain of the kick (default 0.7) and of the snare (default 0.5): another kit's balance. */
  kickGain?: number;
  snareGain?: number;
}

/**
 * A drum groove: kick on the downbeat (and beat 3 in 4/4), snare on the other beats' backbeats (2 and 4, or
 * 2 and 3 in 3/4), closed hats on every eighth note with the on-beat ones louder.
 */
export function drumGroove({ bpm, beatsPerBar, seconds, sampleRate = 44100, kickGain = 0.7, snareGain = 0.5 }: GrooveOptions): StereoAudio {
  const out = new Float32Array(round(seconds * sampleRate));
  const kickSound = kick(sampleRate);
  const snare = snareDrum(sampleRate);
  const hat = highPassed(decayingNoise(0.05, 0.01, 13, sampleRate));
  const beat = 60 / bpm;
  for (let index = 0; index * beat < seconds; index++) {
    const at = index * beat * sampleRate;
    const position = index % beatsPerBar;
    const kickHere = position === 0 || (beatsPerBar === 4 && position === 2);
    if (kickHere) addAt(out, kickSound, at, kickGain);
    else addAt(out, snare, at, snareGain);
    addAt(out, hat, at, 0.25);
    addAt(out, hat, at + (beat / 2) * sampleRate, 0.15);
  }
  return toStereo(out, sampleRate);
}

export interface PatternGrooveOptions {
  bpm: number;
  seconds: number;
  /** One bar of sixteenth steps per voice ('x' a hit, 'o' a ghost stroke at 40 %, '.' a rest), 16 characters each. */
  kick: string;
  snare: string;
  hats: string;
  sampleRate?: number;
}

/** One bar of the grooves the level tests and the level fit share (patternGroove's steps). */
export const GROOVE_BARS = {
  /** Half-time trap: kick on 1 with pickups, snare on beat 3, hats in eighths with sixteenth rolls. */
  trap: { kick: 'x......x..x.....', snare: '........x.......', hats: 'x.x.x.xxx.x.x.xx' },
  /** Reggae one-drop: kick and rim on 3 only, hats in eighths with ghost strokes. */
  oneDrop: { kick: '........x.......', snare: '........x.......', hats: 'x.xox.x.x.xox.x.' },
} as const;

/**
 * A drum groove written as one bar of sixteenths per voice (kick, snare, closed hats), looped: the grooves whose
 * tapped level differs from the plain backbeat's (a half-time snare on 3, a one-drop).
 */
export function patternGroove({ bpm, seconds, kick: kickSteps, snare: snareSteps, hats, sampleRate = 44100 }: PatternGrooveOptions): StereoAudio {
  const out = new Float32Array(round(seconds * sampleRate));
  const voices = [
    { steps: kickSteps, sound: kick(sampleRate), gain: 0.7 },
    { steps: snareSteps, sound: snareDrum(sampleRate), gain: 0.5 },
    { steps: hats, sound: highPassed(decayingNoise(0.05, 0.01, 13, sampleRate)), gain: 0.2 },
  ];
  const step = 60 / bpm / 4;
  for (let index = 0; index * step < seconds; index++) {
    for (const voice of voices) {
      const stroke = voice.steps[index % 16];
      if (stroke === 'x' || stroke === 'o') addAt(out, voice.sound, index * step * sampleRate, stroke === 'x' ? voice.gain : 0.4 * voice.gain);
    }
  }
  return toStereo(out, sampleRate);
}

function highPassed(samples: Float32Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 1; i < samples.length; i++) out[i] = 0.5 * (samples[i] - samples[i - 1]);
  return out;
}

const MAJOR_SCALE = [0, 2, 4, 5, 7, 9, 11];
const NATURAL_MINOR_SCALE = [0, 2, 3, 5, 7, 8, 10];

export interface TonalOptions {
  tonicPitchClass: number;
  mode: 'major' | 'minor';
  seconds: number;
  sampleRate?: number;
  /** How long each chord of a progression lasts (default 2 s). */
  secondsPerChord?: number;
}

/**
 * A chord progression in a key: I–IV–V–I in major, i–iv–V–i in minor (harmonic-minor V, as in common
 * practice), two seconds per chord unless told, triads in octave 4 plus the root in octave 2, each note a decaying
 * tone with six harmonics (a plucked-string-like timbre).
 */
export function chordProgression(options: TonalOptions): StereoAudio {
  const { tonicPitchClass, mode, seconds, sampleRate = 44100, secondsPerChord: chordSeconds = 2 } = options;
  const scale = mode === 'major' ? MAJOR_SCALE : NATURAL_MINOR_SCALE;
  const degrees = [0, 3, 4, 0];
  const out = new Float32Array(round(seconds * sampleRate));
  for (let index = 0; index * chordSeconds < seconds; index++) {
    const degree = degrees[index % degrees.length];
    const triad = [0, 2, 4].map((step) => scaleNote(scale, degree + step));
    if (mode === 'minor' && degree === 4) triad[1] += 1; // raised leading tone
    const root = 36 + tonicPitchClass + scale[degree];
    for (const note of [root, ...triad.map((offset) => 60 + tonicPitchClass + offset)]) {
      addAt(out, harmonicTone(note, chordSeconds, sampleRate), index * chordSeconds * sampleRate, 0.12);
    }
  }
  return toStereo(out, sampleRate);
}

/**
 * One note per half second up and down the scale, over a held tonic an octave lower: by default a soft drone with
 * six harmonics at 1/n; `droneHarmonics` makes it brighter (that many harmonics at 1/√n, like a sawtooth pad or
 * a bowed string: its 5th harmonic, the major third two octaves up, is 45 % of its fundamental).
 */
export function scaleRun({
  tonicPitchClass,
  mode,
  seconds,
  sampleRate = 44100,
  droneGain = 0.08,
  droneHarmonics,
}: TonalOptions & { droneGain?: number; droneHarmonics?: number }): StereoAudio {
  const scale = mode === 'major' ? MAJOR_SCALE : NATURAL_MINOR_SCALE;
  const run = [0, 1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1, 0];
  const out = new Float32Array(round(seconds * sampleRate));
  for (let index = 0; index * 0.5 < seconds; index++) {
    const note = 60 + tonicPitchClass + scaleNote(scale, run[index % run.length]);
    addAt(out, harmonicTone(note, 0.5, sampleRate), index * 0.5 * sampleRate, 0.2);
  }
  const drone = droneHarmonics ? harmonicTone(48 + tonicPitchClass, seconds, sampleRate, Infinity, droneHarmonics, 0.5) : harmonicTone(48 + tonicPitchClass, seconds, sampleRate, Infinity);
  addAt(out, drone, 0, droneGain);
  return toStereo(out, sampleRate);
}

function scaleNote(scale: number[], step: number): number {
  return scale[step % 7] + 12 * floor(step / 7);
}

/** A decaying tone of `harmonics` harmonics, the nth at 1/n^slope of the fundamental. */
function harmonicTone(midiNote: number, seconds: number, sampleRate: number, decaySeconds = 0.8, harmonics = 6, slope = 1): Float32Array {
  const frequency = 440 * 2 ** ((midiNote - 69) / 12);
  const out = new Float32Array(round(seconds * sampleRate));
  for (let harmonic = 1; harmonic <= harmonics; harmonic++) {
    const step = (2 * PI * frequency * harmonic) / sampleRate;
    if (frequency * harmonic > sampleRate / 2) break;
    for (let i = 0; i < out.length; i++) out[i] += sin(step * i) / harmonic ** slope;
  }
  for (let i = 0; i < out.length; i++) out[i] *= exp(-i / (decaySeconds * sampleRate)) * min(1, i / 200);
  return out;
}

/** Sum of several signals of the same rate (the longest one's length). */
export function mixSignals(...parts: StereoAudio[]): StereoAudio {
  const length = Math.max(...parts.map((part) => part.left.length));
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  for (const part of parts) {
    addAt(left, part.left, 0, 1);
    addAt(right, part.right, 0, 1);
  }
  return { sampleRate: parts[0].sampleRate, left, right };
}

const VOWEL_FORMANTS: [number, number, number][] = [
  [700, 1200, 2600],
  [300, 2300, 3000],
  [300, 800, 2400],
  [500, 1900, 2500],
  [500, 900, 2400],
];

/**
 * A voice-like sound: a harmonic source (all harmonics to 4 kHz) shaped by the three formants of a vowel that
 * changes every syllable. Spoken: syllables of 0.12–0.3 s at about four per second with short pauses, the
 * fundamental gliding between 100 and 150 Hz. Sung: notes of 0.4–0.8 s on a pentatonic scale around 220 Hz,
 * with 5.5 Hz vibrato of ±35 cents.
 */
export function voiceLike(style: 'spoken' | 'sung', seconds: number, sampleRate = 22050): StereoAudio {
  const out = new Float32Array(round(seconds * sampleRate));
  const draw = noiseSequence(style === 'sung' ? 31 : 23);
  const unit = () => 0.5 + 0.5 * draw();
  const sung = style === 'sung';
  let t = 0.1;
  for (let syllable = 0; t < seconds - 0.3; syllable++) {
    const length = sung ? 0.4 + 0.4 * unit() : 0.12 + 0.18 * unit();
    const formants = VOWEL_FORMANTS[syllable % VOWEL_FORMANTS.length];
    const note = 220 * 2 ** ([0, 2, 4, 7, 9][floor(5 * unit()) % 5] / 12);
    const [startPitch, endPitch] = sung ? [note, note] : [100 + 50 * unit(), 100 + 50 * unit()];
    const start = round(t * sampleRate);
    const samples = round(length * sampleRate);
    let phase = 0;
    for (let i = 0; i < samples && start + i < out.length; i++) {
      const progress = i / samples;
      const vibrato = sung ? 2 ** ((0.35 / 12) * sin((2 * PI * 5.5 * i) / sampleRate)) : 1;
      const f0 = (startPitch + (endPitch - startPitch) * progress) * vibrato;
      phase += (2 * PI * f0) / sampleRate;
      let sample = 0;
      for (let harmonic = 1; harmonic * f0 < min(4000, sampleRate / 2); harmonic++) {
        const frequency = harmonic * f0;
        const weight = formants.reduce((sum, formant) => sum + exp(-(((frequency - formant) / 120) ** 2)), 0.02);
        sample += (weight / harmonic) * sin(harmonic * phase);
      }
      out[start + i] += 0.3 * sample * sin(PI * progress);
    }
    t += length + (sung ? 0.05 : 0.05 + 0.15 * unit());
  }
  return toStereo(out, sampleRate);
}

/** Steady broadband noise at `amplitude` (crowd, room tone), the same fixed sequence every time. */
export function noiseFloor(seconds: number, amplitude: number, sampleRate = 44100): StereoAudio {
  const noise = noiseSequence(29);
  const out = new Float32Array(round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * noise();
  return toStereo(out, sampleRate);
}
