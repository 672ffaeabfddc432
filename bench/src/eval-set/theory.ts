/** Just enough music theory to write songs that are unambiguously in one key. */

export type Mode = 'major' | 'minor';

/** Sharps except for the flats pop charts normally use (Eb, Ab, Bb). */
export const PITCH_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const;

/** Natural minor; the major V in minor progressions is spelled explicitly as 'V'. */
const SCALE_STEPS: Record<Mode, readonly number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
};

export function keyName(tonicPitchClass: number, mode: Mode): string {
  return `${PITCH_NAMES[tonicPitchClass]} ${mode}`;
}

export function pitchClass(midi: number): number {
  return ((midi % 12) + 12) % 12;
}

export interface Chord {
  roman: string;
  /** Pitch class of the root. */
  root: number;
  quality: 'major' | 'minor' | 'diminished';
  /** Pitch classes, root first. */
  tones: number[];
  symbol: string;
}

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII'];

/** Parses a roman numeral in the key: upper case = major triad, lower = minor, trailing 'o' = diminished. */
export function chordFromRoman(roman: string, tonic: number, mode: Mode): Chord {
  const diminished = roman.endsWith('o');
  const numeral = diminished ? roman.slice(0, -1) : roman;
  const degree = ROMAN.indexOf(numeral.toUpperCase());
  if (degree < 0) throw new Error(`Bad roman numeral ${roman}`);
  const root = pitchClass(tonic + SCALE_STEPS[mode][degree]);
  const quality = diminished ? 'diminished' : numeral === numeral.toUpperCase() ? 'major' : 'minor';
  const intervals = quality === 'major' ? [0, 4, 7] : quality === 'minor' ? [0, 3, 7] : [0, 3, 6];
  const suffix = quality === 'major' ? '' : quality === 'minor' ? 'm' : 'dim';
  return {
    roman,
    root,
    quality,
    tones: intervals.map((i) => pitchClass(root + i)),
    symbol: `${PITCH_NAMES[root]}${suffix}`,
  };
}

export function parseProgression(text: string, tonic: number, mode: Mode): Chord[] {
  return text.split(/[\s-]+/).map((roman) => chordFromRoman(roman, tonic, mode));
}

/** Progressions that state the key plainly (tonic chord early, dominant or subdominant pulls back to it). */
export const PROGRESSIONS: Record<Mode, readonly string[]> = {
  major: ['I-V-vi-IV', 'vi-IV-I-V', 'I-vi-IV-V', 'I-IV-vi-V', 'I-IV-I-V', 'I-iii-IV-V', 'IV-I-V-vi'],
  minor: ['i-VI-III-VII', 'i-iv-v-i', 'i-VII-VI-VII', 'i-iv-VI-V', 'i-VI-iv-V', 'i-iv-i-V', 'i-III-VII-iv'],
};

/**
 * MIDI note numbers of the scale (plus the chord's own tones, so a major V in minor
 * gets its leading tone) between lo and hi inclusive.
 */
export function scaleNotes(tonic: number, mode: Mode, lo: number, hi: number, chord?: Chord): number[] {
  const classes = new Set(SCALE_STEPS[mode].map((s) => pitchClass(tonic + s)));
  if (chord) {
    // Drop the scale tone a semitone below an altered chord tone (b7 under a raised 7).
    for (const t of chord.tones) {
      if (!classes.has(t)) {
        classes.delete(pitchClass(t - 1));
        classes.add(t);
      }
    }
  }
  const notes: number[] = [];
  for (let n = lo; n <= hi; n++) if (classes.has(pitchClass(n))) notes.push(n);
  return notes;
}

/** The MIDI note of pitch class pc closest to target. */
export function nearestPitch(pc: number, target: number): number {
  const base = target - pitchClass(target - pc);
  return target - base > 6 ? base + 12 : base;
}
