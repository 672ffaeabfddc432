import { csvNumber, csvText } from './csv';

/**
 * The studio's beat grid: beat n falls at n × 60 / bpm seconds from the start of the song (the first beat
 * at 0 s), and a bar holds `beatsPerBar` beats (the analysis's time signature). It is the grid the
 * studio's playback counts its `/stemdeck/beat` events on.
 */
export interface BeatGrid {
  bpm: number;
  beatsPerBar: number;
  /** Where beat 0 falls; the studio counts from the start of the song. */
  firstBeatSeconds: number;
}

export interface Beat {
  /** From 0, the number `/stemdeck/beat` sends for it. */
  index: number;
  seconds: number;
  /** From 1. */
  bar: number;
  /** From 1 (1 is the bar's downbeat). */
  beatInBar: number;
}

export const beatSeconds = (grid: BeatGrid): number => 60 / grid.bpm;
export const barSeconds = (grid: BeatGrid): number => (60 / grid.bpm) * grid.beatsPerBar;

/** Every beat that starts before the song ends. */
export function beatsOf(grid: BeatGrid, durationSeconds: number): Beat[] {
  if (!(grid.bpm > 0) || !(durationSeconds > 0)) return [];
  const beats: Beat[] = [];
  for (let index = 0; ; index++) {
    const seconds = grid.firstBeatSeconds + index * beatSeconds(grid);
    if (seconds >= durationSeconds) break;
    beats.push({ index, seconds, bar: Math.floor(index / grid.beatsPerBar) + 1, beatInBar: (index % grid.beatsPerBar) + 1 });
  }
  return beats;
}

/** How many bars the song has (its last bar may be cut short by the end of the song). */
export const barCount = (grid: BeatGrid, durationSeconds: number): number =>
  durationSeconds > 0 && grid.bpm > 0 ? Math.ceil((durationSeconds - grid.firstBeatSeconds) / barSeconds(grid)) : 0;

export const BEATS_CSV_HEADER = ['beat', 'time', 'bar', 'beat_in_bar'] as const;

/** beats.csv: one row per beat, its time in seconds (0.1 ms resolution). */
export function beatsCsv(beats: readonly Beat[]): string {
  return csvText(
    BEATS_CSV_HEADER,
    beats.map((beat) => [beat.index, csvNumber(beat.seconds, 4), beat.bar, beat.beatInBar]),
  );
}
