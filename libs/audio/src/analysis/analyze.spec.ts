import type { StereoAudio } from '../types';
import { analyzeAudio } from './analyze';
import type { SpotifyFeatures } from './features';
import { KEY_NAMES } from './key';
import {
  chordProgression,
  clickTrack,
  drumGroove,
  mixSignals,
  noiseFloor,
  silence,
  sineTone,
  voiceLike,
} from './testing/test-signals';

const UNIT_FEATURES = [
  'danceability',
  'energy',
  'valence',
  'acousticness',
  'instrumentalness',
  'liveness',
  'speechiness',
] as const satisfies readonly (keyof SpotifyFeatures)[];

function song(seconds = 16, sampleRate = 44100): StereoAudio {
  return mixSignals(
    drumGroove({ bpm: 120, beatsPerBar: 4, seconds, sampleRate }),
    chordProgression({ tonicPitchClass: 7, mode: 'major', seconds, sampleRate }),
  );
}

const features = (audio: StereoAudio) => analyzeAudio(audio).spotifyFeatures;

describe('analyzeAudio', () => {
  const signals: [string, () => StereoAudio][] = [
    ['silence', () => silence(4)],
    ['a sine', () => sineTone(440, 4, 0.3)],
    ['noise', () => noiseFloor(4, 0.3)],
    ['clicks', () => clickTrack(100, 8)],
    ['a song', () => song(8)],
    ['speech', () => voiceLike('spoken', 8)],
  ];

  it.each(signals)('keeps every feature of %s in Spotify’s range and rounding', (_name, make) => {
    const audio = make();
    const result = analyzeAudio(audio);
    const f = result.spotifyFeatures;
    for (const name of UNIT_FEATURES) {
      expect(f[name]).toBeGreaterThanOrEqual(0);
      expect(f[name]).toBeLessThanOrEqual(1);
      expect(Math.round(f[name] * 100) / 100).toBe(f[name]);
    }
    expect(f.tempo).toBe(result.bpm);
    expect(f.loudness).toBe(result.loudnessLufs);
    expect(Math.round(f.loudness * 10) / 10).toBe(f.loudness);
    expect(f.key).toBeGreaterThanOrEqual(-1);
    expect(f.key).toBeLessThanOrEqual(11);
    expect([0, 1]).toContain(f.mode);
    expect(f.time_signature).toBeGreaterThanOrEqual(3);
    expect(f.time_signature).toBeLessThanOrEqual(7);
    expect(f.duration_ms).toBe(Math.round((audio.left.length / audio.sampleRate) * 1000));
    expect(KEY_NAMES).toContain(result.key);
    if (f.key >= 0) expect(result.key).toBe(KEY_NAMES[(f.mode === 1 ? 0 : 12) + f.key]);
  });

  it('is deterministic and leaves its input alone', () => {
    const audio = song(10);
    const copy = { ...audio, left: audio.left.slice(), right: audio.right.slice() };
    const first = analyzeAudio(audio);
    expect(analyzeAudio(audio)).toEqual(first);
    expect(audio).toEqual(copy);
  });

  it('copes with empty, very short and low-rate audio', () => {
    for (const audio of [silence(0), sineTone(440, 0.05, 0.3), clickTrack(100, 6, 8000), song(6, 16000)]) {
      const result = analyzeAudio(audio);
      expect(result.bpm).toBeGreaterThanOrEqual(60);
      for (const name of UNIT_FEATURES) expect(Number.isFinite(result.spotifyFeatures[name])).toBe(true);
      expect(Number.isFinite(result.loudnessLufs)).toBe(true);
    }
  });

  it('gives a 48 kHz render the tempo and key of the 44.1 kHz one', () => {
    const at44 = analyzeAudio(song(12, 44100));
    const at48 = analyzeAudio(song(12, 48000));
    expect(at48.bpm).toBeCloseTo(at44.bpm, 0);
    expect(at48.key).toBe(at44.key);
  });
});

describe('Spotify-style features move the way their definitions say', () => {
  it('energy: a loud busy song over quiet sparse clicks; silence has none', () => {
    const quietClicks = clickTrack(70, 12);
    for (const channel of [quietClicks.left, quietClicks.right]) channel.forEach((s, i) => (channel[i] = 0.05 * s));
    expect(features(song()).energy).toBeGreaterThan(features(quietClicks).energy + 0.2);
    expect(features(silence(4)).energy).toBe(0);
  });

  it('danceability: a drum groove over held chords; nothing without a pulse', () => {
    const chords = chordProgression({ tonicPitchClass: 7, mode: 'major', seconds: 16, secondsPerChord: 4 });
    expect(features(song()).danceability).toBeGreaterThan(features(chords).danceability + 0.3);
    expect(features(silence(4)).danceability).toBe(0);
    expect(features(sineTone(440, 4, 0.3)).danceability).toBe(0);
  });

  it('valence: a fast major song over a slow minor one', () => {
    const bright = mixSignals(
      drumGroove({ bpm: 140, beatsPerBar: 4, seconds: 16 }),
      chordProgression({ tonicPitchClass: 0, mode: 'major', seconds: 16 }),
    );
    const dark = mixSignals(
      drumGroove({ bpm: 70, beatsPerBar: 4, seconds: 16 }),
      chordProgression({ tonicPitchClass: 9, mode: 'minor', seconds: 16 }),
    );
    expect(features(bright).valence).toBeGreaterThan(features(dark).valence + 0.2);
  });

  it('speechiness: spoken syllables above 0.33, a song below 0.1', () => {
    expect(features(voiceLike('spoken', 16)).speechiness).toBeGreaterThan(0.33);
    expect(features(song()).speechiness).toBeLessThan(0.1);
  });

  it('instrumentalness: a sung line (vibrato) below 0.5, a song without voice above it', () => {
    expect(features(voiceLike('sung', 16)).instrumentalness).toBeLessThan(0.5);
    expect(features(song()).instrumentalness).toBeGreaterThan(0.5);
  });

  it('liveness: a steady crowd-like noise floor under the song raises it', () => {
    const live = mixSignals(song(), noiseFloor(16, 0.1));
    expect(features(live).liveness).toBeGreaterThan(features(song()).liveness + 0.3);
  });

  it('acousticness: plucked chords alone over the same chords under drums and a noise floor', () => {
    const plucked = chordProgression({ tonicPitchClass: 2, mode: 'major', seconds: 16 });
    const produced = mixSignals(song(), noiseFloor(16, 0.05));
    expect(features(plucked).acousticness).toBeGreaterThan(features(produced).acousticness);
  });
});
