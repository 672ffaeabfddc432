/**
 * Production styles: which kit, grooves, bass line and accompaniment instruments a track uses.
 * Grids are 16 sixteenth-note steps per bar (32 = a two-bar pattern):
 * 'X' accent, 'x' normal, 'o' ghost, '.' rest.
 */

import { HELDOUT_STYLES, type HeldoutStyleName } from './heldout/styles';
import { TUNING_STYLES, type TuningStyleName } from './tuning/styles';

/** The development set's styles (the training set draws from these too). */
export const STYLE_NAMES = [
  'pop',
  'rock',
  'funk',
  'house',
  'synthpop',
  'hiphop-ballad',
  'soul-ballad',
  'drum-and-bass',
] as const;
export type StyleName = (typeof STYLE_NAMES)[number];

/** GM percussion key numbers (channel 10). */
export const DRUM_KEYS = {
  kick: 36,
  snare: 38,
  sideStick: 37,
  clap: 39,
  closedHat: 42,
  pedalHat: 44,
  openHat: 46,
  ride: 51,
  tambourine: 54,
  shaker: 70,
  crash: 49,
  crash2: 57,
  highTom: 50,
  midTom: 47,
  lowTom: 45,
  floorTom: 43,
} as const;
export type DrumVoice = keyof typeof DRUM_KEYS;
export type DrumGrid = Partial<Record<DrumVoice, string>>;

export type BassPatternName =
  | 'pop'
  | 'eighths'
  | 'funk'
  | 'offbeat'
  | 'octaves'
  | 'sustain'
  | 'dnb'
  // held-out styles only
  | 'walking'
  | 'reggae'
  | 'bossa'
  | 'disco'
  | 'two-feel'
  // tempo tuning styles only
  | 'eight-oh-eight'
  | 'dub'
  | 'boogie'
  | 'quarters'
  | 'root-fifth';
export type AccompanimentRole = 'block' | 'pad' | 'arp' | 'stabs' | 'power' | 'strum' | 'chop';

export interface InstrumentChoice {
  program: number;
  name: string;
  role: AccompanimentRole;
}

export interface StyleDef {
  name: StyleName | HeldoutStyleName | TuningStyleName;
  /** No drum part at all (a tempo tuning style): the drum stem is silent. */
  drumless?: boolean;
  /** GM drum kit number (bank 128 program). */
  kits: number[];
  /** Fraction of a sixteenth by which off-beat sixteenths are delayed. */
  swing: number;
  grooves: { intro: DrumGrid; verse: DrumGrid; chorus: DrumGrid };
  bass: { programs: number[]; pattern: BassPatternName };
  /** Two or three accompaniment slots; one instrument is drawn per slot. */
  other: InstrumentChoice[][];
  /** Rhythm for 'block' and 'stabs' roles. */
  compGrid: string;
  barsPerChord: number;
}

const EIGHTH_HATS = 'X.x.X.x.X.x.X.x.';
const SIXTEENTH_HATS = 'XoxoXoxoXoxoXoxo';
const BACKBEAT = '....X.......X...';

// Programs avoided on purpose for "other": choir/voice patches (52-54, 85, 91), which would blur the vocal stem.
const STYLES: Record<StyleName, StyleDef> = {
  pop: {
    name: 'pop',
    kits: [0, 8],
    swing: 0,
    grooves: {
      intro: { kick: 'x.......x.......', closedHat: EIGHTH_HATS },
      verse: { kick: 'x......x..x.....', snare: BACKBEAT, closedHat: EIGHTH_HATS },
      chorus: { kick: 'x.....x.x.x.....', snare: BACKBEAT, closedHat: 'x...x...x...x...', openHat: '..x...x...x...x.', tambourine: BACKBEAT },
    },
    bass: { programs: [33, 34], pattern: 'pop' },
    other: [
      [
        { program: 0, name: 'acoustic grand piano', role: 'block' },
        { program: 4, name: 'electric piano', role: 'block' },
      ],
      [
        { program: 25, name: 'steel acoustic guitar', role: 'strum' },
        { program: 27, name: 'clean electric guitar', role: 'arp' },
      ],
      [
        { program: 48, name: 'string ensemble', role: 'pad' },
        { program: 89, name: 'warm pad', role: 'pad' },
      ],
    ],
    compGrid: 'x..x..x...x.x...',
    barsPerChord: 1,
  },
  rock: {
    name: 'rock',
    kits: [16, 0],
    swing: 0,
    grooves: {
      intro: { kick: 'x.......x.......', ride: EIGHTH_HATS },
      verse: { kick: 'x.....x.x.......', snare: BACKBEAT, closedHat: EIGHTH_HATS },
      chorus: { kick: 'x.....x.x.x.....', snare: BACKBEAT, ride: EIGHTH_HATS, crash2: '........x.......' },
    },
    bass: { programs: [34, 33], pattern: 'eighths' },
    other: [
      [
        { program: 30, name: 'distortion guitar', role: 'power' },
        { program: 29, name: 'overdriven guitar', role: 'power' },
      ],
      [
        { program: 27, name: 'clean electric guitar', role: 'arp' },
        { program: 29, name: 'overdriven guitar', role: 'power' },
      ],
      [
        { program: 18, name: 'rock organ', role: 'pad' },
        { program: 0, name: 'acoustic grand piano', role: 'block' },
      ],
    ],
    compGrid: 'x.....x.x.......',
    barsPerChord: 1,
  },
  funk: {
    name: 'funk',
    kits: [0],
    swing: 0.08,
    grooves: {
      intro: { kick: 'x..x..x...x.....', closedHat: SIXTEENTH_HATS },
      verse: { kick: 'x..x..x...x..x..', snare: '....X..o.o..X..o', closedHat: SIXTEENTH_HATS },
      chorus: { kick: 'x..x..x...x..x..', snare: '....X..o.o..X..o', closedHat: 'XoxoXox.XoxoXox.', openHat: '.......x.......x' },
    },
    bass: { programs: [33, 36], pattern: 'funk' },
    other: [
      [
        { program: 28, name: 'muted electric guitar', role: 'chop' },
        { program: 27, name: 'clean electric guitar', role: 'chop' },
      ],
      [
        { program: 4, name: 'electric piano', role: 'block' },
        { program: 16, name: 'drawbar organ', role: 'pad' },
      ],
      [
        { program: 61, name: 'brass section', role: 'stabs' },
        { program: 62, name: 'synth brass', role: 'stabs' },
      ],
    ],
    compGrid: 'x..x...x..x..x..',
    barsPerChord: 1,
  },
  house: {
    name: 'house',
    kits: [24, 25],
    swing: 0,
    grooves: {
      intro: { kick: 'x...x...x...x...', closedHat: 'xoxoxoxoxoxoxoxo' },
      verse: { kick: 'X...X...X...X...', clap: BACKBEAT, openHat: '..x...x...x...x.', closedHat: 'xo.oxo.oxo.oxo.o' },
      chorus: { kick: 'X...X...X...X...', clap: BACKBEAT, openHat: '..x...x...x...x.', closedHat: 'xo.oxo.oxo.oxo.o', shaker: 'xoxoxoxoxoxoxoxo' },
    },
    bass: { programs: [38, 39], pattern: 'offbeat' },
    other: [
      [
        { program: 0, name: 'acoustic grand piano', role: 'stabs' },
        { program: 81, name: 'sawtooth lead', role: 'stabs' },
      ],
      [
        { program: 89, name: 'warm pad', role: 'pad' },
        { program: 90, name: 'polysynth pad', role: 'pad' },
        { program: 50, name: 'synth strings', role: 'pad' },
      ],
      [
        { program: 81, name: 'sawtooth lead', role: 'arp' },
        { program: 80, name: 'square lead', role: 'arp' },
      ],
    ],
    compGrid: '..x...x...x...x.',
    barsPerChord: 1,
  },
  synthpop: {
    name: 'synthpop',
    kits: [24, 25],
    swing: 0,
    grooves: {
      intro: { kick: 'x.......x.......', closedHat: EIGHTH_HATS },
      verse: { kick: 'x.....x.x.......', snare: BACKBEAT, clap: BACKBEAT, closedHat: EIGHTH_HATS },
      chorus: { kick: 'x...x...x...x...', snare: BACKBEAT, clap: BACKBEAT, closedHat: 'x...x...x...x...', openHat: '..x...x...x...x.' },
    },
    bass: { programs: [38, 39], pattern: 'octaves' },
    other: [
      [
        { program: 90, name: 'polysynth pad', role: 'block' },
        { program: 4, name: 'electric piano', role: 'block' },
      ],
      [
        { program: 80, name: 'square lead', role: 'arp' },
        { program: 81, name: 'sawtooth lead', role: 'arp' },
      ],
      [
        { program: 88, name: 'new age pad', role: 'pad' },
        { program: 89, name: 'warm pad', role: 'pad' },
      ],
    ],
    compGrid: 'x..x..x.x..x..x.',
    barsPerChord: 1,
  },
  'hiphop-ballad': {
    name: 'hiphop-ballad',
    kits: [25, 0],
    swing: 0.14,
    grooves: {
      intro: { kick: 'x.........x.....', closedHat: EIGHTH_HATS },
      verse: { kick: 'x......x..x.....', snare: BACKBEAT, closedHat: 'x.xxx.x.x.xxx.x.' },
      chorus: { kick: 'x......x.xx.....', snare: BACKBEAT, clap: BACKBEAT, closedHat: 'xoxxxoxoxoxxxoxo' },
    },
    bass: { programs: [38, 33], pattern: 'sustain' },
    other: [
      [
        { program: 4, name: 'electric piano', role: 'block' },
        { program: 5, name: 'electric piano 2', role: 'block' },
      ],
      [
        { program: 49, name: 'slow strings', role: 'pad' },
        { program: 89, name: 'warm pad', role: 'pad' },
      ],
      [
        { program: 11, name: 'vibraphone', role: 'arp' },
        { program: 46, name: 'harp', role: 'arp' },
      ],
    ],
    compGrid: 'x.......x..x....',
    barsPerChord: 1,
  },
  'soul-ballad': {
    name: 'soul-ballad',
    kits: [0, 8],
    swing: 0.1,
    grooves: {
      intro: { closedHat: EIGHTH_HATS, kick: 'x...............' },
      verse: { kick: 'x.......x.x.....', sideStick: BACKBEAT, closedHat: EIGHTH_HATS },
      chorus: { kick: 'x.......x.x.....', snare: BACKBEAT, ride: EIGHTH_HATS },
    },
    bass: { programs: [33, 35, 32], pattern: 'sustain' },
    other: [
      [{ program: 0, name: 'acoustic grand piano', role: 'arp' }],
      [
        { program: 48, name: 'string ensemble', role: 'pad' },
        { program: 16, name: 'drawbar organ', role: 'pad' },
      ],
      [
        { program: 24, name: 'nylon guitar', role: 'arp' },
        { program: 25, name: 'steel acoustic guitar', role: 'strum' },
      ],
    ],
    compGrid: 'x.....x.x.......',
    barsPerChord: 1,
  },
  'drum-and-bass': {
    name: 'drum-and-bass',
    kits: [0, 24],
    swing: 0,
    grooves: {
      intro: { ride: 'x.x.x.x.x.x.x.x.', closedHat: '..x...x...x...x.' },
      verse: {
        kick: 'x.........x.....x.x.......x.....',
        snare: '....X.......X.......X..o....X..o',
        closedHat: 'x.x.x.x.x.x.x.x.',
      },
      chorus: {
        kick: 'x.........x.....x.x.......x..x..',
        snare: '....X..o....X.o.....X..o....X...',
        closedHat: SIXTEENTH_HATS,
        ride: 'x...x...x...x...',
      },
    },
    bass: { programs: [39, 38], pattern: 'dnb' },
    other: [
      [
        { program: 89, name: 'warm pad', role: 'pad' },
        { program: 50, name: 'synth strings', role: 'pad' },
      ],
      [
        { program: 81, name: 'sawtooth lead', role: 'arp' },
        { program: 80, name: 'square lead', role: 'arp' },
      ],
      [
        { program: 0, name: 'acoustic grand piano', role: 'block' },
        { program: 49, name: 'slow strings', role: 'pad' },
      ],
    ],
    compGrid: 'x.......x.......',
    barsPerChord: 2,
  },
};

export function styleDef(name: StyleName | HeldoutStyleName | TuningStyleName): StyleDef {
  if (name in TUNING_STYLES) return TUNING_STYLES[name as TuningStyleName];
  return name in STYLES ? STYLES[name as StyleName] : HELDOUT_STYLES[name as HeldoutStyleName];
}
