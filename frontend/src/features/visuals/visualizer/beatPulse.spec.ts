import type { BeatReading } from './beatDetector';
import { BeatPulse } from './beatPulse';

const reading = (beat: boolean, bpm = 123.4, measured = true): BeatReading => ({ beat, level: beat ? 200 : 100, bpm, measured });

describe('BeatPulse', () => {
  it('without a clocked source, live onsets flash and are the beats announced, at the detected tempo', () => {
    const pulse = new BeatPulse();
    const first = pulse.frame(reading(true), false, 0);
    expect(first).toEqual({ beat: true, pulse: 1, bpm: 123.4, source: 'live', emitLiveBeat: true });
    const later = pulse.frame(reading(false), false, 60);
    expect(later.beat).toBe(false);
    expect(later.emitLiveBeat).toBe(false);
    expect(later.pulse).toBeGreaterThan(0.5);
    expect(later.pulse).toBeLessThan(1);
    // It has faded out before the next beat.
    expect(pulse.frame(reading(false), false, 600).pulse).toBe(0);
    expect(pulse.frame(reading(false, 120, false), false, 616).source).toBe('fallback');
  });

  it('while a clocked source plays, its beats flash at its tempo and live onsets are neither flashed nor announced', () => {
    const pulse = new BeatPulse();
    const onset = pulse.frame(reading(true), true, 0);
    expect(onset).toEqual({ beat: false, pulse: 0, bpm: 123.4, source: 'grid', emitLiveBeat: false });
    pulse.clocked(128);
    const beat = pulse.frame(reading(true), true, 16);
    expect(beat).toEqual({ beat: true, pulse: 1, bpm: 128, source: 'grid', emitLiveBeat: false });
    // One clocked event is one flash.
    expect(pulse.frame(reading(false), true, 32).beat).toBe(false);
    expect(pulse.frame(reading(false), true, 48).bpm).toBe(128);
  });

  it('once the clocked source stops, live detection takes over (a late clocked beat is dropped)', () => {
    const pulse = new BeatPulse();
    pulse.clocked(128);
    const after = pulse.frame(reading(false), false, 0);
    expect(after.beat).toBe(false);
    expect(after.bpm).toBe(123.4);
    expect(pulse.frame(reading(true), false, 500).emitLiveBeat).toBe(true);
  });
});
