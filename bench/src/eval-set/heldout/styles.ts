/**
 * Held-out production styles. Every kit (bank-128 program), bass program and accompaniment
 * program here is one the development styles (../styles.ts) never use; the grooves, bass lines
 * and comping rhythms are new too. Choir and voice patches (52–54, 85, 91, 94) stay out of the
 * accompaniment: 52–54 are the held-out set's sung-vowel vocals.
 */
import type { DrumGrid, StyleDef } from '../styles';

export const HELDOUT_STYLE_NAMES = [
  'blues-shuffle',
  'reggae',
  'bossa-nova',
  'disco',
  'trap',
  'jazz-swing',
  'folk',
  'cinematic-ballad',
] as const;
export type HeldoutStyleName = (typeof HELDOUT_STYLE_NAMES)[number];

const OFFBEAT_EIGHTHS = '..x...x...x...x.';
const TWO_AND_FOUR = '....X.......X...';

const groove = (intro: DrumGrid, verse: DrumGrid, chorus: DrumGrid) => ({ intro, verse, chorus });

export const HELDOUT_STYLES: Record<HeldoutStyleName, StyleDef> = {
  'blues-shuffle': {
    name: 'blues-shuffle',
    kits: [9, 32],
    // Triplet feel: the off-beat sixteenth lands a third of a sixteenth late.
    swing: 0.33,
    grooves: groove(
      { ride: 'x.x.x.x.x.x.x.x.' },
      { kick: 'x.....x.x.......', snare: TWO_AND_FOUR, closedHat: 'x.x.x.x.x.x.x.x.' },
      { kick: 'x.....x.x.....x.', snare: TWO_AND_FOUR, ride: 'x.xxx.xxx.xxx.xx' },
    ),
    bass: { programs: [37, 43], pattern: 'walking' },
    other: [
      [
        { program: 3, name: 'honky-tonk piano', role: 'block' },
        { program: 1, name: 'bright piano', role: 'block' },
      ],
      [
        { program: 26, name: 'jazz guitar', role: 'chop' },
        { program: 17, name: 'percussive organ', role: 'pad' },
      ],
      [
        { program: 65, name: 'alto sax', role: 'stabs' },
        { program: 57, name: 'trombone', role: 'stabs' },
      ],
    ],
    compGrid: 'x.....x...x...x.',
    barsPerChord: 1,
  },
  reggae: {
    name: 'reggae',
    kits: [10, 33],
    swing: 0.06,
    grooves: groove(
      { sideStick: '........x.......', closedHat: 'x.x.x.x.x.x.x.x.' },
      // One drop: kick and rim together on beat three only.
      { kick: '........X.......', sideStick: '........x.......', closedHat: 'x.xox.xox.xox.xo' },
      { kick: '........X.......', snare: '........X.......', closedHat: 'x.xox.xox.xox.xo', openHat: '......x.......x.' },
    ),
    bass: { programs: [37, 87], pattern: 'reggae' },
    other: [
      [
        { program: 7, name: 'clavinet', role: 'stabs' },
        { program: 26, name: 'jazz guitar', role: 'stabs' },
      ],
      [
        { program: 17, name: 'percussive organ', role: 'stabs' },
        { program: 20, name: 'reed organ', role: 'pad' },
      ],
      [
        { program: 56, name: 'trumpet', role: 'stabs' },
        { program: 66, name: 'tenor sax', role: 'stabs' },
      ],
    ],
    compGrid: OFFBEAT_EIGHTHS,
    barsPerChord: 1,
  },
  'bossa-nova': {
    name: 'bossa-nova',
    kits: [40, 41],
    swing: 0,
    grooves: groove(
      { closedHat: 'xxxxxxxxxxxxxxxx' },
      // Two-bar clave on the rim over a steady kick.
      { kick: 'x..xx..xx..xx..x', sideStick: 'x..x..x...x..x..x..x..x...x..x..', closedHat: 'xoxoxoxoxoxoxoxo' },
      { kick: 'x..xx..xx..xx..x', sideStick: 'x..x..x...x..x..x..x..x...x..x..', ride: 'x.x.x.x.x.x.x.x.', shaker: 'xoxoxoxoxoxoxoxo' },
    ),
    bass: { programs: [43, 37], pattern: 'bossa' },
    other: [
      [
        { program: 26, name: 'jazz guitar', role: 'block' },
        { program: 2, name: 'electric grand', role: 'block' },
      ],
      [
        { program: 12, name: 'marimba', role: 'arp' },
        { program: 73, name: 'flute', role: 'arp' },
      ],
      [
        { program: 44, name: 'tremolo strings', role: 'pad' },
        { program: 51, name: 'synth strings 2', role: 'pad' },
      ],
    ],
    compGrid: 'x..x..x...x..x..',
    barsPerChord: 1,
  },
  disco: {
    name: 'disco',
    kits: [1, 17],
    swing: 0,
    grooves: groove(
      { kick: 'x...x...x...x...', openHat: OFFBEAT_EIGHTHS },
      { kick: 'X...X...X...X...', snare: TWO_AND_FOUR, openHat: OFFBEAT_EIGHTHS, closedHat: 'x...x...x...x...' },
      { kick: 'X...X...X...X...', snare: TWO_AND_FOUR, clap: TWO_AND_FOUR, openHat: OFFBEAT_EIGHTHS, tambourine: 'xoxoxoxoxoxoxoxo' },
    ),
    bass: { programs: [87, 37], pattern: 'disco' },
    other: [
      [
        { program: 7, name: 'clavinet', role: 'chop' },
        { program: 26, name: 'jazz guitar', role: 'chop' },
      ],
      [
        { program: 44, name: 'tremolo strings', role: 'pad' },
        { program: 51, name: 'synth strings 2', role: 'pad' },
      ],
      [
        { program: 63, name: 'synth brass 2', role: 'stabs' },
        { program: 56, name: 'trumpet', role: 'stabs' },
      ],
    ],
    compGrid: '..x..x....x..x..',
    barsPerChord: 1,
  },
  trap: {
    name: 'trap',
    kits: [2, 32],
    swing: 0,
    grooves: groove(
      { closedHat: 'x.x.x.x.x.x.x.x.' },
      // Half-time: the snare on beat three, rolling hats.
      { kick: 'x......x..x.....', snare: '........X.......', closedHat: 'x.x.x.xxx.x.x.xx' },
      { kick: 'x......x..x..x..', snare: '........X.......', clap: '........x.......', closedHat: 'xxx.x.xxx.xxx.xx', openHat: '.............x..' },
    ),
    bass: { programs: [87, 58], pattern: 'sustain' },
    other: [
      [
        { program: 10, name: 'music box', role: 'arp' },
        { program: 108, name: 'kalimba', role: 'arp' },
        { program: 8, name: 'celesta', role: 'arp' },
      ],
      [
        { program: 92, name: 'bowed glass', role: 'pad' },
        { program: 95, name: 'sweep pad', role: 'pad' },
      ],
      [
        { program: 6, name: 'harpsichord', role: 'block' },
        { program: 83, name: 'chiff lead', role: 'stabs' },
      ],
    ],
    compGrid: 'x.......x.......',
    barsPerChord: 2,
  },
  'jazz-swing': {
    name: 'jazz-swing',
    kits: [40, 42, 34],
    swing: 0.3,
    grooves: groove(
      { ride: 'x...x.x.x...x.x.', pedalHat: TWO_AND_FOUR },
      { kick: 'x.......x.......', ride: 'x...x.x.x...x.x.', pedalHat: TWO_AND_FOUR, snare: '..........o....o' },
      { kick: 'x.......x.....o.', ride: 'x...x.x.x...x.x.', pedalHat: TWO_AND_FOUR, snare: '......o...o..x..' },
    ),
    bass: { programs: [43, 37], pattern: 'walking' },
    other: [
      [
        { program: 2, name: 'electric grand', role: 'stabs' },
        { program: 1, name: 'bright piano', role: 'stabs' },
      ],
      [
        { program: 26, name: 'jazz guitar', role: 'chop' },
        { program: 12, name: 'marimba', role: 'arp' },
      ],
      [
        { program: 66, name: 'tenor sax', role: 'pad' },
        { program: 59, name: 'muted trumpet', role: 'pad' },
      ],
    ],
    compGrid: '...x..x.....x...',
    barsPerChord: 1,
  },
  folk: {
    name: 'folk',
    kits: [41, 12],
    swing: 0,
    grooves: groove(
      { closedHat: 'x.x.x.x.x.x.x.x.' },
      // Train beat: brushed snare sixteenths with accents on two and four.
      { kick: 'x.......x.......', snare: 'oxoxXxoxoxoxXxox' },
      { kick: 'x.......x.......', snare: 'oxoxXxoxoxoxXxox', tambourine: TWO_AND_FOUR },
    ),
    bass: { programs: [43, 58], pattern: 'two-feel' },
    other: [
      [
        { program: 105, name: 'banjo', role: 'arp' },
        { program: 31, name: 'guitar harmonics', role: 'arp' },
      ],
      [
        { program: 21, name: 'accordion', role: 'pad' },
        { program: 22, name: 'harmonica', role: 'pad' },
      ],
      [
        { program: 110, name: 'fiddle', role: 'pad' },
        { program: 45, name: 'pizzicato strings', role: 'arp' },
      ],
    ],
    compGrid: 'x...x...x...x...',
    barsPerChord: 1,
  },
  'cinematic-ballad': {
    name: 'cinematic-ballad',
    kits: [18, 35],
    swing: 0,
    grooves: groove(
      { kick: 'x...............' },
      { kick: 'x.......x.......', sideStick: TWO_AND_FOUR, ride: 'x...x...x...x...' },
      { kick: 'x.....x.x.......', snare: TWO_AND_FOUR, ride: 'x.x.x.x.x.x.x.x.' },
    ),
    bass: { programs: [43, 58], pattern: 'sustain' },
    other: [
      [
        { program: 1, name: 'bright piano', role: 'arp' },
        { program: 6, name: 'harpsichord', role: 'arp' },
      ],
      [
        { program: 42, name: 'cello', role: 'pad' },
        { program: 41, name: 'viola', role: 'pad' },
      ],
      [
        { program: 60, name: 'french horns', role: 'pad' },
        { program: 68, name: 'oboe', role: 'pad' },
        { program: 19, name: 'church organ', role: 'pad' },
      ],
    ],
    compGrid: 'x.......x.......',
    barsPerChord: 2,
  },
};
