import type { Chord } from '../theory';

/**
 * Close-position voicing of the chord inside [lo, hi] that moves least from the previous one
 * (plain voice leading keeps the accompaniment sounding like a player, not a chord table).
 */
export function voiceChord(chord: Chord, lo: number, hi: number, previous: number[] | null, noteCount = 3): number[] {
  const candidates: number[][] = [];
  for (let inversion = 0; inversion < chord.tones.length; inversion++) {
    for (let start = lo; start < lo + 12; start++) {
      if (((start % 12) + 12) % 12 !== chord.tones[inversion]) continue;
      const notes = [start];
      for (let k = 1; k < noteCount; k++) {
        const pc = chord.tones[(inversion + k) % chord.tones.length];
        let n = notes[k - 1] + 1;
        while (((n % 12) + 12) % 12 !== pc) n++;
        notes.push(n);
      }
      if (notes[notes.length - 1] <= hi) candidates.push(notes);
    }
  }
  if (candidates.length === 0) throw new Error(`No voicing of ${chord.symbol} in ${lo}..${hi}`);
  const reference = previous ? mean(previous) : (lo + hi) / 2;
  let best = candidates[0];
  for (const c of candidates) if (Math.abs(mean(c) - reference) < Math.abs(mean(best) - reference)) best = c;
  return best;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
