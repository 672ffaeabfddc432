import { chunksOf } from '../io/pcm-stream';
import type { StereoAudio } from '../types';
import { ANALYSIS_EXCERPT_SECONDS, analyzeAudio, StreamingAnalysis } from './analyze';
import { chordProgression, drumGroove, mixSignals, silence } from './testing/test-signals';

const song = (seconds: number): StereoAudio =>
  mixSignals(
    drumGroove({ bpm: 120, beatsPerBar: 4, seconds, sampleRate: 44100 }),
    chordProgression({ tonicPitchClass: 7, mode: 'major', seconds, sampleRate: 44100 }),
  );

async function streamed(audio: StereoAudio, chunkFrames: number, expectedFrames?: number) {
  const analysis = new StreamingAnalysis(audio.sampleRate, expectedFrames);
  for await (const chunk of chunksOf(audio, chunkFrames)) analysis.push(chunk);
  return analysis;
}

describe('StreamingAnalysis', () => {
  it('gives exactly analyzeAudio\'s answer for a song shorter than the excerpt, in any chunking', async () => {
    const audio = song(12);
    const whole = analyzeAudio(audio);
    for (const chunkFrames of [44100, 1000, 4410 * 7 + 3]) {
      expect((await streamed(audio, chunkFrames)).finish()).toEqual(whole);
      expect((await streamed(audio, chunkFrames, audio.left.length)).finish()).toEqual(whole);
    }
  });

  it('reads tempo and key from the middle of a recording longer than the excerpt, loudness and length from all of it', async () => {
    // Silence, then the song for the whole excerpt window, then silence again.
    const pad = 30;
    const sampleRate = 44100;
    const middle = song(ANALYSIS_EXCERPT_SECONDS);
    const quiet = silence(pad, sampleRate);
    const total = middle.left.length + 2 * quiet.left.length;
    const analysis = new StreamingAnalysis(sampleRate, total);
    for (const part of [quiet, middle, quiet]) for await (const chunk of chunksOf(part, 65536)) analysis.push(chunk);
    const result = analysis.finish();
    expect(result.bpm).toBeCloseTo(120, 0);
    expect(result.key).toBe('G major');
    expect(result.spotifyFeatures.duration_ms).toBe(Math.round((total / sampleRate) * 1000));
    // The silent ends do not lower the gated loudness: it matches the song alone.
    expect(result.loudnessLufs).toBeCloseTo(analyzeAudio(song(20)).loudnessLufs, 0);
  }, 120_000);
});
