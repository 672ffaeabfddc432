import { analyzeAudio } from './analyze';
import { TEMPO_FALLBACK_BPM } from './tempo';
import { chordProgression, clickTrack, drumGroove, GROOVE_BARS, mixSignals, noiseFloor, patternGroove, silence, sineTone } from './testing/test-signals';

const within = (estimate: number, truth: number, tolerance: number) => Math.abs(estimate / truth - 1) <= tolerance;

describe('tempo', () => {
  it.each([60, 90, 128, 174, 190])('finds a click track at %i BPM within 2 %', (bpm) => {
    const { bpm: estimate } = analyzeAudio(clickTrack(bpm, 20));
    expect(within(estimate, bpm, 0.02)).toBe(true);
  });

  it.each([
    [72, 4],
    [100, 4],
    [140, 4],
    [170, 4],
    [96, 3],
    [150, 3],
  ] as const)('finds a drum groove with chords at %i BPM (%i beats per bar) within 2 %', (bpm, beatsPerBar) => {
    const secondsPerBar = (60 / bpm) * beatsPerBar;
    const groove = mixSignals(
      drumGroove({ bpm, beatsPerBar, seconds: 24 }),
      chordProgression({ tonicPitchClass: 5, mode: 'major', seconds: 24, secondsPerChord: secondsPerBar }),
    );
    expect(within(analyzeAudio(groove).bpm, bpm, 0.02)).toBe(true);
  });

  it.each([124, 129, 136])(
    'keeps the beat of a kit whose kick is ~10 dB above its snare at %i BPM (not half of it)',
    (bpm) => {
      // The snare still marks 2 and 4, so the kick–snare alternation is the beat a listener taps. A check on how
      // evenly strong the beats are (the earlier estimate) read the quiet snare strokes as subdivisions and halved.
      const groove = mixSignals(
        drumGroove({ bpm, beatsPerBar: 4, seconds: 16, sampleRate: 22050, kickGain: 1, snareGain: 0.3 }),
        chordProgression({ tonicPitchClass: 2, mode: 'major', seconds: 16, secondsPerChord: 240 / bpm, sampleRate: 22050 }),
      );
      expect(within(analyzeAudio(groove).bpm, bpm, 0.02)).toBe(true);
    },
  );

  it('prefers the level near 120 BPM when a groove is only a kick and a snare alternating (not the double)', () => {
    // At 92 BPM the double (184) is in range and its pulses alternate kick and snare just as evenly.
    const groove = drumGroove({ bpm: 92, beatsPerBar: 4, seconds: 16, sampleRate: 22050 });
    expect(within(analyzeAudio(groove).bpm, 92, 0.02)).toBe(true);
  });

  it.each([136, 143, 158])('reads a half-time trap groove at %i BPM where it is written (snare on 3), not at half', (bpm) => {
    // Kick on 1 with pickups, snare on beat 3, hats in eighths with sixteenth rolls: the kick-to-snare distance is
    // that of a backbeat at half the tempo, so the kick–snare cue the level choice once used read 71.5 for 143.
    const trap = patternGroove({ bpm, seconds: 20, ...GROOVE_BARS.trap });
    expect(within(analyzeAudio(trap).bpm, bpm, 0.02)).toBe(true);
  });

  it.each([70, 78, 86])('reads a one-drop at %i BPM at its quarter note (kick and rim on 3), not at double', (bpm) => {
    // Hats in eighths with ghost strokes; the drop falls once a bar. The earlier choice read 156 for 78.
    const oneDrop = patternGroove({ bpm, seconds: 20, ...GROOVE_BARS.oneDrop });
    expect(within(analyzeAudio(oneDrop).bpm, bpm, 0.02)).toBe(true);
  });

  it('is exact to a tenth of a BPM on a steady click', () => {
    expect(analyzeAudio(clickTrack(123.4, 30)).bpm).toBeCloseTo(123.4, 1);
  });

  it('reads a 48 kHz click track like a 44.1 kHz one', () => {
    expect(within(analyzeAudio(clickTrack(128, 20, 48000)).bpm, 128, 0.02)).toBe(true);
  });

  it.each([
    ['silence', silence(10)],
    ['a held sine', sineTone(440, 10, 0.3)],
  ])('falls back to %s → 120 BPM without a pulse', (_name, audio) => {
    expect(analyzeAudio(audio).bpm).toBe(TEMPO_FALLBACK_BPM);
  });

  it('stays within 60–200 BPM with one decimal, whatever the input', () => {
    for (const audio of [noiseFloor(8, 0.3), clickTrack(40, 20), clickTrack(240, 20), sineTone(3, 8, 0.5)]) {
      const { bpm } = analyzeAudio(audio);
      expect(bpm).toBeGreaterThanOrEqual(60);
      expect(bpm).toBeLessThanOrEqual(200);
      expect(Math.round(bpm * 10) / 10).toBe(bpm);
    }
  });
});

describe('time signature', () => {
  it.each([
    [120, 3],
    [150, 3],
    [90, 4],
    [128, 4],
  ] as const)('hears %i BPM with %i beats per bar', (bpm, beatsPerBar) => {
    const groove = mixSignals(
      drumGroove({ bpm, beatsPerBar, seconds: 24 }),
      chordProgression({ tonicPitchClass: 0, mode: 'minor', seconds: 24, secondsPerChord: (60 / bpm) * beatsPerBar }),
    );
    expect(analyzeAudio(groove).spotifyFeatures.time_signature).toBe(beatsPerBar);
  });

  it('defaults to 4 without accents (a click track, silence)', () => {
    expect(analyzeAudio(clickTrack(100, 20)).spotifyFeatures.time_signature).toBe(4);
    expect(analyzeAudio(silence(5)).spotifyFeatures.time_signature).toBe(4);
  });
});
