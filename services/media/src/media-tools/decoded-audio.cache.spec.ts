import { DecodedAudioCache } from './decoded-audio.cache';

const audio = (n: number) => ({ sampleRate: 44100, left: new Float32Array(n), right: new Float32Array(n) });

describe('DecodedAudioCache', () => {
  afterEach(() => jest.useRealTimers());

  it('hands an entry over once', () => {
    const cache = new DecodedAudioCache();
    const decoded = audio(4);
    cache.put('a', decoded);
    expect(cache.take('a')).toBe(decoded);
    expect(cache.take('a')).toBeUndefined();
  });

  it('keeps only the two newest entries', () => {
    const cache = new DecodedAudioCache();
    cache.put('a', audio(1));
    cache.put('b', audio(2));
    cache.put('c', audio(3));
    expect(cache.take('a')).toBeUndefined();
    expect(cache.take('b')?.left.length).toBe(2);
    expect(cache.take('c')?.left.length).toBe(3);
  });

  it('lets go of unclaimed audio after a minute', () => {
    jest.useFakeTimers();
    const cache = new DecodedAudioCache();
    cache.put('a', audio(1));
    jest.advanceTimersByTime(61_000);
    expect(cache.take('a')).toBeUndefined();
  });
});
