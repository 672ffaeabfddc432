import * as path from 'node:path';
import type { StemType } from '@stemdeck/audio';
import type { Mode } from './theory';

/** Repository root, from bench/dist/eval-set (or bench/src/eval-set under ts tooling). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const DEFAULT_EVAL_SET_DIR = path.join(REPO_ROOT, '.data', 'eval-set');
export const DEFAULT_QUICK_EVAL_SET_DIR = path.join(REPO_ROOT, '.data', 'eval-set-quick');
export const DEFAULT_HELDOUT_SET_DIR = path.join(REPO_ROOT, '.data', 'eval-set-heldout');
export function defaultTempoSetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `tempo-set-${seed}`);
}
export function defaultHeldoutSetDir(seed: number | undefined): string {
  return seed === undefined ? DEFAULT_HELDOUT_SET_DIR : `${DEFAULT_HELDOUT_SET_DIR}-${seed}`;
}
export function defaultWideSetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `wide-set-${seed}`);
}
export function defaultWide2SetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `wide2-set-${seed}`);
}

export function defaultWide3SetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `wide3-set-${seed}`);
}

export function defaultWide4SetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `wide4-set-${seed}`);
}
export function defaultWide5SetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `wide5-set-${seed}`);
}
export function defaultWide6SetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `wide6-set-${seed}`);
}
export function defaultTrainSetDir(seed: number): string {
  return path.join(REPO_ROOT, '.data', `train-set-${seed}`);
}

export const INDEX_FILE = 'index.json';
export const META_FILE = 'meta.json';
export const MIXTURE_FILE = 'mixture.wav';
export function stemFile(stem: StemType): string {
  return `${stem}.wav`;
}

/** Ground truth for one track, as written to <track>/meta.json. */
export interface EvalTrackMeta {
  id: string;
  bpm: number;
  /** e.g. "F# minor". */
  key: string;
  /** 0 = C … 11 = B. */
  tonicPitchClass: number;
  mode: Mode;
  timeSignature: 4;
  durationSeconds: number;
  genre: string;
  sampleRate: number;
  frames: number;
  generatorVersion: number;
  /** Which instruments and voice play, for reading results per condition. */
  arrangement: {
    /** 'male' | 'female' (the development singer); held-out tracks name their singer, patch or speaker. */
    voice: string;
    drumKit: number;
    bassProgram: number;
    other: { program: number; name: string; role: string; pan: number }[];
  };
  /** Held-out and wide tracks: where each stem's sound came from and how it was mixed. */
  sources?: HeldoutSources;
  progressions: Record<'verse' | 'chorus' | 'bridge', string>;
  /** Chord per bar and section starts, in seconds from the start (bars past the cut omitted). */
  chords: { startSeconds: number; symbol: string; roman: string }[];
  sections: { startSeconds: number; kind: string }[];
  /** Mixture peak after the common gain, dBFS. */
  mixturePeakDbfs: number;
}

export interface HeldoutSources {
  /** Soundfont file names per rendered stem (vocals only when a voice patch sings). */
  soundfonts: { drums: string; bass: string; other: string; vocals?: string };
  vocal: { kind: 'soundfont' | 'formant' | 'spoken' | 'rapped' | 'sung'; detail: string };
  /** fluidsynth reverb for the MIDI stems, and the vocal's own room and pan (-1..1). */
  reverb: { roomSize: number; damping: number; width: number; level: number };
  vocalRoom: { wet: number; roomSize: number; damping: number; preDelaySeconds: number; pan: number };
  /** Stem balance (active RMS, dB) and crest limits (dB) before the common gain. */
  levelsDb: Record<StemType, number>;
  crestDb: Record<StemType, number>;
}

export interface EvalSetIndex {
  generatorVersion: number;
  /** 'full' is the development set (the name predates the held-out set; kept so existing sets stay valid). */
  set: 'full' | 'quick' | 'train' | 'heldout' | 'tempo' | 'wide' | 'wide2' | 'wide3' | 'wide4' | 'wide5' | 'wide6';
  /** Training and tempo tuning sets, and a re-drawn held-out set: the seed the songs were drawn from. */
  seed?: number;
  sampleRate: number;
  tracks: { id: string; bpm: number; key: string; genre: string; durationSeconds: number }[];
}
