/** Helpers for the 16-steps-per-bar pattern strings used by the part writers. */

export const STEPS_PER_BAR = 16;

export interface GridHit {
  step: number;
  /** 'X' accent, 'x' normal, 'o' ghost. */
  strength: 'X' | 'x' | 'o';
}

/** Hits of a 16- or 32-step grid for the given bar (32-step grids alternate two bars). */
export function gridHits(grid: string, barIndex: number): GridHit[] {
  const bars = Math.max(1, Math.floor(grid.length / STEPS_PER_BAR));
  const offset = (barIndex % bars) * STEPS_PER_BAR;
  const hits: GridHit[] = [];
  for (let step = 0; step < STEPS_PER_BAR; step++) {
    const c = grid[offset + step];
    if (c === 'X' || c === 'x' || c === 'o') hits.push({ step, strength: c });
  }
  return hits;
}

/** Beat offset of a step inside its bar, with off-beat sixteenths delayed by the swing amount. */
export function stepBeat(step: number, swing: number): number {
  return step / 4 + (step % 2 === 1 ? swing / 4 : 0);
}

export function strengthVelocity(strength: GridHit['strength']): number {
  return strength === 'X' ? 112 : strength === 'x' ? 92 : 48;
}
