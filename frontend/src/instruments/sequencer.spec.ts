import { clampBpm, defaultPattern, emptyPattern, SEQUENCER_ROWS, STEPS } from './pattern';

const stepsOf = (row: boolean[]) => row.flatMap((on, step) => (on ? [step] : []));

describe('sequencer pattern', () => {
  it('defaults to kick on the beats, snare on 2 and 4, hi-hat on every step', () => {
    const pattern = defaultPattern();
    expect(stepsOf(pattern.kick)).toEqual([0, 4, 8, 12]);
    expect(stepsOf(pattern.snare)).toEqual([4, 12]);
    expect(stepsOf(pattern.hihat)).toHaveLength(STEPS);
    expect(stepsOf(pattern.openhat)).toEqual([]);
  });

  it('clears to nothing for the first four drums', () => {
    const pattern = emptyPattern();
    expect(Object.keys(pattern)).toEqual(SEQUENCER_ROWS);
    for (const row of SEQUENCER_ROWS) expect(stepsOf(pattern[row])).toEqual([]);
  });

  it('keeps the tempo within 60–200 BPM in whole steps', () => {
    expect([59, 60, 120.4, 200, 240].map(clampBpm)).toEqual([60, 60, 120, 200, 200]);
  });
});
