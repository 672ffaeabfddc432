import { csvNumber, csvText } from './csv';

/**
 * Sections from the mix's energy, bar by bar: a plain energy-change detector, not a guess at verse or chorus.
 *
 * 1. Each bar's level in dB (its mean square, floored at −80 dB so silence is finite).
 * 2. At every bar line, the novelty is the difference between the mean level of the `window` bars after it
 *    and the `window` bars before it (fewer near the ends of the song).
 * 3. A bar line is a candidate when its novelty is at least `thresholdDb` and the largest within ±2 bars.
 * 4. Candidates are taken strongest first while every section stays at least `minBars` long (the song's
 *    start and end count as bar lines).
 * Each section is then labelled by its level against the song's median bar: 'high' at least `labelDb`
 * above it, 'low' at least `labelDb` below, else 'mid'.
 */
export interface SectionOptions {
  minBars: number;
  window: number;
  thresholdDb: number;
  labelDb: number;
}
export const SECTION_OPTIONS: SectionOptions = { minBars: 8, window: 4, thresholdDb: 3, labelDb: 2 };

const FLOOR_DB = -80;
const toDb = (power: number): number => Math.max(FLOOR_DB, 10 * Math.log10(Math.max(power, 1e-12)));

export interface Section {
  /** Bars [startBar, endBar), from 0. */
  startBar: number;
  endBar: number;
  /** 'section 1 (high)', … */
  label: string;
  level: 'low' | 'mid' | 'high';
  /** The section's RMS relative to the loudest section's, 0..1 (1 is the loudest). */
  energy: number;
  /** Mean square over the section's bars. */
  power: number;
}

/** Mean square per bar from mean square per frame (frame k at k/fps; bar b at b × barSeconds). */
export function barPower(framePower: Float64Array, fps: number, barSeconds: number): number[] {
  const sums: number[] = [];
  const counts: number[] = [];
  for (let frame = 0; frame < framePower.length; frame++) {
    const bar = Math.floor(frame / fps / barSeconds + 1e-9);
    sums[bar] = (sums[bar] ?? 0) + framePower[frame]!;
    counts[bar] = (counts[bar] ?? 0) + 1;
  }
  return Array.from({ length: sums.length }, (_, bar) => (counts[bar] ? sums[bar]! / counts[bar]! : 0));
}

/** Bar lines where the level changes, by the steps above (0 and bars.length excluded). */
export function sectionBoundaries(bars: readonly number[], options: SectionOptions = SECTION_OPTIONS): number[] {
  const db = bars.map(toDb);
  const mean = (from: number, to: number) => {
    const slice = db.slice(Math.max(0, from), Math.min(db.length, to));
    return slice.reduce((sum, value) => sum + value, 0) / slice.length;
  };
  const novelty = db.map((_, line) => (line === 0 ? 0 : Math.abs(mean(line, line + options.window) - mean(line - options.window, line))));
  const candidates: number[] = [];
  for (let line = options.minBars; line <= db.length - options.minBars; line++) {
    const here = novelty[line]!;
    if (here < options.thresholdDb) continue;
    let isPeak = true;
    for (let other = line - 2; other <= line + 2; other++) if (other !== line && (novelty[other] ?? 0) > here) isPeak = false;
    if (isPeak) candidates.push(line);
  }
  candidates.sort((a, b) => novelty[b]! - novelty[a]! || a - b);
  const taken: number[] = [];
  for (const line of candidates) {
    if ([0, db.length, ...taken].every((other) => Math.abs(other - line) >= options.minBars)) taken.push(line);
  }
  return taken.sort((a, b) => a - b);
}

/** The song's sections (one covering the whole song when nothing changes enough, or the song is short). */
export function detectSections(bars: readonly number[], options: SectionOptions = SECTION_OPTIONS): Section[] {
  if (bars.length === 0) return [];
  const lines = [0, ...sectionBoundaries(bars, options), bars.length];
  const sorted = bars.map(toDb).sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const spans = lines.slice(1).map((endBar, index) => {
    const startBar = lines[index]!;
    const power = bars.slice(startBar, endBar).reduce((sum, value) => sum + value, 0) / (endBar - startBar);
    return { startBar, endBar, power };
  });
  const loudest = Math.max(...spans.map((span) => span.power));
  return spans.map((span, index) => {
    const relative = toDb(span.power) - median;
    const level = relative >= options.labelDb ? 'high' : relative <= -options.labelDb ? 'low' : 'mid';
    return {
      ...span,
      level,
      label: `section ${index + 1} (${level})`,
      energy: loudest > 0 ? Math.sqrt(span.power / loudest) : 0,
    };
  });
}

export const SECTIONS_CSV_HEADER = ['start', 'end', 'start_bar', 'end_bar', 'label', 'energy'] as const;

/** sections.csv: start and end in seconds (the last section ends with the song), bars from 1, label, energy 0..1. */
export function sectionsCsv(sections: readonly Section[], barSeconds: number, durationSeconds: number): string {
  return csvText(
    SECTIONS_CSV_HEADER,
    sections.map((section) => [
      csvNumber(section.startBar * barSeconds, 4),
      csvNumber(Math.min(section.endBar * barSeconds, durationSeconds), 4),
      section.startBar + 1,
      section.endBar,
      section.label,
      csvNumber(section.energy, 4),
    ]),
  );
}
