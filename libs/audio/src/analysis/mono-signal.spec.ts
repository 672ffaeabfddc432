import { decimateToAnalysisRate, downmixToMono } from './mono-signal';
import { sineTone } from './testing/test-signals';

function gainDb(frequency: number, sampleRate = 44100): number {
  const tone = sineTone(frequency, 1, 1, sampleRate);
  const out = decimateToAnalysisRate({ sampleRate, samples: downmixToMono(tone) }).samples;
  // Skip the filter's edges.
  let power = 0;
  for (let i = 200; i < out.length - 200; i++) power += out[i] * out[i];
  return 10 * Math.log10(power / (out.length - 400) / 0.5);
}

describe('decimateToAnalysisRate', () => {
  it.each([
    [44100, 11025],
    [48000, 12000],
    [22050, 11025],
    [16000, 16000],
    [96000, 12000],
  ])('halves %i Hz down to %i Hz', (sampleRate, expected) => {
    const out = decimateToAnalysisRate({ sampleRate, samples: new Float32Array(sampleRate) });
    expect(out.sampleRate).toBe(expected);
    expect(out.samples.length).toBe(Math.round(expected));
  });

  it('passes the band up to 4 kHz flat', () => {
    for (const frequency of [100, 1000, 3000, 4000]) expect(Math.abs(gainDb(frequency))).toBeLessThan(0.05);
  });

  it('stops what would alias below 4 kHz by at least 60 dB', () => {
    for (const frequency of [7100, 9000, 12000, 15000, 17000, 20000]) expect(gainDb(frequency)).toBeLessThan(-60);
  });

  it('downmixes to the mid channel', () => {
    const mono = downmixToMono({ sampleRate: 8000, left: Float32Array.of(1, 0.5), right: Float32Array.of(0, 0.5) });
    expect(Array.from(mono)).toEqual([0.5, 0.5]);
  });
});
