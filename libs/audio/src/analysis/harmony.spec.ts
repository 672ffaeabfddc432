import { bandEnergies } from './bands';
import { harmonicChange } from './harmony';
import { decimateToAnalysisRate, downmixToMono } from './mono-signal';
import { onsetEnvelope } from './onset';
import { findPartials, partialsFramesPerSecond } from './partials';
import { levelFeatures, levelScore } from './tempo-octave';
import type { StereoAudio } from '../types';
import { chordProgression, mixSignals, patternGroove } from './testing/test-signals';

/** A drum bar looped at `bpm` with a chord a bar (4 beats), both `seconds` long. */
const grooveWithChords = (bpm: number, seconds: number, bar: { kick: string; snare: string; hats: string }, tonicPitchClass: number) =>
  mixSignals(patternGroove({ bpm, seconds, ...bar }), chordProgression({ tonicPitchClass, mode: 'minor', seconds, secondsPerChord: (4 * 60) / bpm }));

const analysed = (audio: StereoAudio) => {
  const signal = decimateToAnalysisRate({ sampleRate: audio.sampleRate, samples: downmixToMono(audio) });
  return { signal, harmony: harmonicChange(findPartials(signal), partialsFramesPerSecond(signal.sampleRate)) };
};

describe('harmonic change', () => {
  it('rises where the chord changes and stays low while it is held', () => {
    // I – IV – V – I, 3 s each: changes at 3, 6 and 9 s (the fourth chord repeats the first: none at 12 s).
    const { harmony } = analysed(chordProgression({ tonicPitchClass: 7, mode: 'major', seconds: 15, secondsPerChord: 3 }));
    const window = (seconds: number) => Math.round(seconds * harmony.framesPerSecond);
    const near = (seconds: number) => Math.max(...harmony.change.slice(window(seconds) - 1, window(seconds) + 2));
    for (const boundary of [3, 6, 9]) expect(near(boundary)).toBeGreaterThan(0.4);
    for (const held of [1.5, 4.5, 7.5, 10.5, 12]) expect(near(held)).toBeLessThan(0.1);
  });

  it('is 0 where there are no held notes, and the level cues then count as not measured', () => {
    const drums = patternGroove({ bpm: 80, seconds: 20, kick: '........x.......', snare: '........x.......', hats: 'x.x.x.x.x.x.x.x.' });
    const { signal, harmony } = analysed(drums);
    expect(harmony.change.length).toBeGreaterThan(40);
    expect(harmony.change.every((value) => value === 0)).toBe(true);
    const [slow, fast] = levelFeatures(onsetEnvelope(bandEnergies(signal)), harmony, [80, 160]);
    for (const candidate of [slow, fast]) {
      expect(candidate.harmonyFour).toBeNaN();
      expect(candidate.harmonyEight).toBeNaN();
      expect(Number.isFinite(levelScore(candidate))).toBe(true);
    }
    expect(harmonicChange([], 2.7).change).toHaveLength(0);
  });

  it('does not measure a repetition longer than the recording (8 slow beats of a short clip)', () => {
    const bpm = 70;
    const { signal, harmony } = analysed(grooveWithChords(bpm, 6, { kick: 'x.......x.......', snare: '....x.......x...', hats: 'x.x.x.x.x.x.x.x.' }, 9));
    const [slow] = levelFeatures(onsetEnvelope(bandEnergies(signal)), harmony, [bpm, 2 * bpm]);
    expect(slow.harmonyEight).toBeNaN();
    expect(Number.isFinite(slow.harmonyFour)).toBe(true);
    expect(Number.isFinite(levelScore(slow))).toBe(true);
  });

  it('repeats every four beats of a slow groove that changes chord once a bar, not every four of its double', () => {
    // A one-drop at 80 (kick and rim on 3), a chord a bar: 3 s, which is 8 beats of 160.
    const bpm = 80;
    const { signal, harmony } = analysed(grooveWithChords(bpm, 24, { kick: '........x.......', snare: '........x.......', hats: 'x.x.x.x.x.x.x.x.' }, 2));
    const [slow, fast] = levelFeatures(onsetEnvelope(bandEnergies(signal)), harmony, [bpm, 2 * bpm]);
    expect(slow.harmonyFour).toBeGreaterThan(fast.harmonyFour + 0.5);
  });
});
