import type { Partial } from './partials';

/**
 * How much the harmony changes at each partials window (~0.37 s, partials.ts): the chord and bass changes that
 * mark a song's bars. Songs change chord once a bar or once every two bars far more often than every half bar,
 * so how these changes repeat, counted in a candidate's beats, tells a slow groove from the same groove read at
 * its double (a reggae one-drop at 80 changes chord every 4 of its beats, every 8 of 160's); the level choice
 * reads it (tempo-octave.ts).
 *
 * Each window's chroma is its steady partials' amplitude (smear under STEADY_SMEAR: held notes — chords, bass,
 * most instruments; not drum hits, nor most sung notes, whose vibrato smears them) up to MAX_HZ, folded to the
 * nearest equal-tempered pitch class of A = 440 Hz (a tuning offset moves every window alike, and only the
 * change counts; near a quarter-tone offset, notes can flip between two classes and add small false changes:
 * chroma.ts's tuning estimate would remove that, at the cost of refitting the level model). The change at a window boundary is Foote's novelty on it:
 * 1 − the cosine between the summed chroma of the HALF windows before and the HALF after (0 for the same notes,
 * 1 for notes with no pitch class in common), so a melody moving within a chord changes it little and a new chord
 * much; 0 where either side has no steady partials.
 */
export interface HarmonicChange {
  framesPerSecond: number;
  change: Float32Array;
}

const STEADY_SMEAR = 0.3;
/** Windows each side of a boundary (~0.74 s). */
const HALF = 2;
/** Chords and bass lines; a voice's upper partials and the cymbals' peaks lie mostly above. */
const MAX_HZ = 1000;

export function harmonicChange(partials: Partial[], framesPerSecond: number): HarmonicChange {
  const frames = partials.length > 0 ? partials[partials.length - 1].frame + 1 : 0;
  const chroma = new Float64Array(frames * 12);
  for (const { frame, frequency, amplitude, smear } of partials) {
    if (smear >= STEADY_SMEAR || frequency > MAX_HZ) continue;
    const pitchClass = ((Math.round(69 + 12 * Math.log2(frequency / 440)) % 12) + 12) % 12;
    chroma[frame * 12 + pitchClass] += amplitude;
  }
  const change = new Float32Array(frames);
  const before = new Float64Array(12);
  const after = new Float64Array(12);
  for (let frame = HALF; frame + HALF <= frames; frame++) {
    before.fill(0);
    after.fill(0);
    for (let k = 0; k < HALF; k++)
      for (let pc = 0; pc < 12; pc++) {
        before[pc] += chroma[(frame - 1 - k) * 12 + pc];
        after[pc] += chroma[(frame + k) * 12 + pc];
      }
    let dot = 0;
    let a2 = 0;
    let b2 = 0;
    for (let pc = 0; pc < 12; pc++) {
      dot += before[pc] * after[pc];
      a2 += before[pc] * before[pc];
      b2 += after[pc] * after[pc];
    }
    change[frame] = a2 > 0 && b2 > 0 ? 1 - dot / Math.sqrt(a2 * b2) : 0;
  }
  return { framesPerSecond, change };
}
