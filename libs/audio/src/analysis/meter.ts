import { autocorrelationAt } from './autocorrelation';
import { mean } from './math';
import type { OnsetEnvelope } from './onset';
import { pulseSignal } from './pulse';
import type { TempoEstimate } from './tempo';

/**
 * Time signature, 3 or 4 beats per bar, from how accents repeat across beats.
 *
 * Bars show up as periodicity at a multiple of the beat period P: the downbeat's kick, the bass note and the
 * chord change recur every bar, the backbeat does not. For each candidate bar length m ∈ {3, 4} the bar
 * evidence is the autocorrelation peak (summed over ±1 frame) at m·P and 2m·P relative to the one at P, averaged
 * over two pulse signals: the full onset flux and the low-band (< 150 Hz) flux, where kicks and bass notes
 * mark the downbeats. 3 wins only with BAR_MARGIN more evidence than 4: almost all popular music is in 4, and
 * 4 is the answer without a beat at all.
 */
export function estimateBeatsPerBar(onsets: OnsetEnvelope, tempo: TempoEstimate): 3 | 4 {
  if (tempo.pulseClarity === 0) return 4;
  const lowPulse = pulseSignal(onsets.low, onsets.framesPerSecond);
  const pulses: Autocorrelation[] = [(lag) => tempo.autocorrelation[lag] ?? 0, (lag) => autocorrelationAt(lowPulse, lag)];
  const evidence = (beatsPerBar: number) => mean(pulses.map((acf) => barEvidence(acf, tempo.periodFrames, beatsPerBar)));
  return evidence(3) > evidence(4) * BAR_MARGIN ? 3 : 4;
}

const BAR_MARGIN = 1.1;

/** Autocorrelation of a pulse signal at an integer lag (the full band's is already computed, the low band's is not). */
type Autocorrelation = (lag: number) => number;

function barEvidence(acf: Autocorrelation, period: number, beatsPerBar: number): number {
  const beat = peakNear(acf, period);
  if (!(beat > 0)) return 0;
  return (peakNear(acf, beatsPerBar * period) + peakNear(acf, 2 * beatsPerBar * period)) / (2 * beat);
}

/**
 * The autocorrelation summed over the three frames around `lag`: its peaks are only a frame or two wide, so one
 * interpolated value depends on where the true lag falls between frames; the sum does not.
 */
function peakNear(acf: Autocorrelation, lag: number): number {
  const centre = Math.round(lag);
  return acf(centre - 1) + acf(centre) + acf(centre + 1);
}
