import { analyzeAudio } from './analyze';
import { KEY_NAMES } from './key';
import { chordProgression, clickTrack, drumGroove, mixSignals, scaleRun, silence } from './testing/test-signals';

const PITCH_CLASSES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const ALL_KEYS = (['major', 'minor'] as const).flatMap((mode) => PITCH_CLASSES.map((_, tonic) => [tonic, mode] as const));

describe('key', () => {
  it('names the 24 keys with sharps, majors first', () => {
    expect(KEY_NAMES).toHaveLength(24);
    expect(KEY_NAMES[0]).toBe('C major');
    expect(KEY_NAMES[6]).toBe('F# major');
    expect(KEY_NAMES[12 + 10]).toBe('A# minor');
    expect(KEY_NAMES[23]).toBe('B minor');
  });

  it.each(ALL_KEYS)('finds pitch class %i %s in a chord progression (I–IV–V–I, minor i–iv–V–i)', (tonic, mode) => {
    const result = analyzeAudio(chordProgression({ tonicPitchClass: tonic, mode, seconds: 12, sampleRate: 22050 }));
    expect(result.key).toBe(`${PITCH_CLASSES[tonic]} ${mode}`);
    expect(result.spotifyFeatures.key).toBe(tonic);
    expect(result.spotifyFeatures.mode).toBe(mode === 'major' ? 1 : 0);
  });

  it.each(ALL_KEYS)('finds pitch class %i %s in a scale over a tonic drone', (tonic, mode) => {
    expect(analyzeAudio(scaleRun({ tonicPitchClass: tonic, mode, seconds: 12, sampleRate: 22050 })).key).toBe(
      `${PITCH_CLASSES[tonic]} ${mode}`,
    );
  });

  it.each([0, 5, 9])('reads a minor scale over a bright tonic drone as minor (pitch class %i), not as its parallel major', (tonic) => {
    // The drone's 5th harmonic is the major third two octaves up; counted as a note, it outweighs the melody's
    // minor third and the key flips to major (as the earlier estimate did).
    const run = scaleRun({ tonicPitchClass: tonic, mode: 'minor', seconds: 12, sampleRate: 22050, droneGain: 0.15, droneHarmonics: 12 });
    expect(analyzeAudio(run).key).toBe(`${PITCH_CLASSES[tonic]} minor`);
  });

  it('is not thrown by drums under the chords', () => {
    const song = mixSignals(
      drumGroove({ bpm: 110, beatsPerBar: 4, seconds: 16 }),
      chordProgression({ tonicPitchClass: 3, mode: 'minor', seconds: 16 }),
    );
    expect(analyzeAudio(song).key).toBe('D# minor');
  });

  it('reports no key (−1) for silence and for clicks', () => {
    expect(analyzeAudio(silence(5)).spotifyFeatures.key).toBe(-1);
    expect(analyzeAudio(clickTrack(100, 10)).spotifyFeatures.key).toBe(-1);
  });
});
