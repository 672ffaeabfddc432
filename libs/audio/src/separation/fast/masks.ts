import type { StereoSpectrogram } from '../../dsp';
import { harmonicShare, HarmonicShareWorkspace } from './harmonic-share';
import type { FastParameters } from './parameters';
import { VocalPitchTracker, writeHarmonicComb } from './vocal-pitch';

/**
 * Soft masks (0..1 per cell, applied to both channels) of the stems resynthesised from the spectrum;
 * 'other' is implicitly 1 − the rest (the separator takes it as the mixture minus the other stems).
 */
export interface StemMasks {
  vocals: Float32Array;
  drums: Float32Array;
  bass: Float32Array;
}

/**
 * Grids one thread reuses from segment to segment, sized for the largest segment. Masks are estimated on
 * the bins below params.maskBins only (`width`), and widened to the whole spectrum at the end.
 */
export class MaskWorkspace {
  readonly width: number;
  readonly power: Float32Array;
  readonly centre: Float32Array;
  readonly harmonic: HarmonicShareWorkspace;
  /** What the vocal pitch is tracked on (magnitudes), and the comb of that pitch. */
  readonly vocalEvidence: Float32Array;
  readonly comb: Float32Array;
  readonly pitch: VocalPitchTracker;
  /** Per bin: the running estimate of the vocal reverb tail's power. */
  readonly reverb: Float32Array;
  /** Per bin: the bass band's weight (see bassWeight). */
  readonly bassWeights: Float32Array;
  /** Masks over the analysed bins, then over the whole spectrum. */
  readonly narrowMasks: StemMasks;
  readonly masks: StemMasks;

  constructor(maxFrames: number, spectrumBins: number, params: FastParameters) {
    const bins = Math.min(spectrumBins, params.maskBins);
    const grid = () => new Float32Array(maxFrames * bins);
    const wideGrid = () => new Float32Array(maxFrames * spectrumBins);
    this.width = bins;
    this.power = grid();
    this.centre = grid();
    this.harmonic = new HarmonicShareWorkspace(maxFrames, bins, params);
    this.vocalEvidence = grid();
    this.comb = grid();
    this.pitch = new VocalPitchTracker(params.vocalPitch, maxFrames);
    this.reverb = new Float32Array(bins);
    this.bassWeights = Float32Array.from({ length: bins }, (_, bin) => bassWeight(bin, params));
    this.narrowMasks = { vocals: grid(), drums: grid(), bass: grid() };
    this.masks = { vocals: wideGrid(), drums: wideGrid(), bass: wideGrid() };
  }
}

/**
 * Estimates the stem masks of one segment's spectrogram:
 *
 * 1. Cell features: the power of both channels summed (pan-independent) and the centre index
 *    c = 2·Re(L·R*) / (|L|² + |R|²), 1 where left and right are equal — a centred source: lead vocal,
 *    bass, kick and snare — and lower where one side dominates or the channels are decorrelated (panned
 *    accompaniment, reverb).
 * 2. Harmonic share h from median filtering (harmonic-share.ts); the rest, 1 − h, is the drums.
 * 3. Vocal pitch and comb (vocal-pitch.ts), tracked on the centred harmonic energy above the bass range;
 *    in frames where the comb captures little of that energy (a rest between phrases) it is scaled down.
 * 4. Assignment of the harmonic part: bass = h · c² · bass band · (1 − vocal share), vocals =
 *    h · centre ramp · vocal share, where the vocal share is the comb (held back to 40 % inside the bass
 *    band, where a bass partial under a comb tooth is the likelier owner). The centre ramp rises from 0 at
 *    c = 0.6 to 1 at c = 1: a near-centre keyboard (c ≈ 0.9) keeps most of its energy out of the vocal even
 *    where its partials meet a comb tooth. That is for a centred voice; a doubled or wide one measures
 *    lower at its own partials, and the ramp moves down by as much (vocalCentreShift). Below ≈ 15 Hz
 *    nothing is vocals, drums or bass: infrasound and DC offsets go to 'other'.
 * 5. Vocal reverb: the vocal's own echo outlasts the dry voice and is decorrelated, so step 4 leaves it in
 *    'other'. A per-bin leaky integrator of the vocal estimate (power decaying with a ≈ 0.2 s time
 *    constant) predicts the tail, its gain fitted to how much of 'other' rises and falls with it in the
 *    segment (fittedReverbGain: a dry voice and a wet one differ several-fold); where the prediction is
 *    large against what 'other' holds, that share of 'other' moves to vocals (a Wiener-style split).
 *
 * All of this runs below ≈ 8 kHz; higher bins, with little energy and none of the vocal comb or bass, take
 * the masks of the highest analysed bin in their frame. That leaves about a third of the cells to process.
 */
export function estimateMasks(spec: StereoSpectrogram, params: FastParameters, work: MaskWorkspace): StemMasks {
  const { frames } = spec;
  const bins = work.width;
  computeCellFeatures(spec, work);
  const share = harmonicShare(work.power, frames, bins, params, work.harmonic);
  writeVocalEvidence(share, frames, bins, work);
  const f0 = work.pitch.track(work.vocalEvidence, frames, bins);
  writeHarmonicComb(f0, frames, bins, params.vocalPitch, work.comb);
  gateUnvoicedFrames(frames, bins, params, work);
  assignStems(share, frames, bins, params, work, vocalCentreShift(share, frames, bins, params, work));
  addVocalReverb(frames, bins, params, work);
  widenMasks(frames, bins, spec.bins, work);
  return work.masks;
}

function computeCellFeatures(spec: StereoSpectrogram, work: MaskWorkspace): void {
  const { leftRe, leftIm, rightRe, rightIm } = spec;
  const { power, centre, width } = work;
  for (let frame = 0; frame < spec.frames; frame++) {
    const from = frame * spec.bins;
    const to = frame * width;
    for (let bin = 0; bin < width; bin++) {
      const lRe = leftRe[from + bin];
      const lIm = leftIm[from + bin];
      const rRe = rightRe[from + bin];
      const rIm = rightIm[from + bin];
      const total = lRe * lRe + lIm * lIm + rRe * rRe + rIm * rIm + 1e-20;
      power[to + bin] = total;
      centre[to + bin] = (2 * (lRe * rRe + lIm * rIm)) / total;
    }
  }
}

/** Copies the narrow masks into the spectrum-wide ones, repeating each frame's last value above them. */
function widenMasks(frames: number, bins: number, spectrumBins: number, work: MaskWorkspace): void {
  for (const stem of ['vocals', 'drums', 'bass'] as const) {
    const narrow = work.narrowMasks[stem];
    const wide = work.masks[stem];
    for (let frame = 0; frame < frames; frame++) {
      const row = frame * spectrumBins;
      wide.set(narrow.subarray(frame * bins, (frame + 1) * bins), row);
      wide.fill(narrow[(frame + 1) * bins - 1], row + bins, row + spectrumBins);
    }
  }
}

/** Bass weight of a bin: 1 up to bassFullBin, fading linearly to 0 at bassEndBin. */
function bassWeight(bin: number, params: FastParameters): number {
  const { bassFullBin, bassEndBin } = params;
  return bin <= bassFullBin ? 1 : bin >= bassEndBin ? 0 : (bassEndBin - bin) / (bassEndBin - bassFullBin);
}

/** Magnitude of the centred harmonic energy above the bass band: what the vocal pitch is tracked on. */
function writeVocalEvidence(share: Float32Array, frames: number, bins: number, work: MaskWorkspace): void {
  const { power, centre, vocalEvidence, bassWeights } = work;
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      const i = row + bin;
      const c = centre[i] > 0 ? centre[i] : 0;
      vocalEvidence[i] = share[i] * c * c * (1 - bassWeights[bin]) * Math.sqrt(power[i]);
    }
  }
}

/**
 * The tracker names a pitch in every frame, sung or not. A sung frame's comb holds most of the centred
 * harmonic energy; in a rest it lands on whatever centred chord is there and holds only part of it. The
 * comb of each frame is scaled by how much of that energy it captures, ramped from voicingFrom to voicingTo.
 */
function gateUnvoicedFrames(frames: number, bins: number, params: FastParameters, work: MaskWorkspace): void {
  const { voicingFrom, voicingTo } = params;
  if (!(voicingTo > voicingFrom)) return;
  const { vocalEvidence, comb } = work;
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    let captured = 0;
    let total = 1e-30;
    for (let bin = 0; bin < bins; bin++) {
      const e2 = vocalEvidence[row + bin] * vocalEvidence[row + bin];
      captured += comb[row + bin] * e2;
      total += e2;
    }
    const ratio = captured / total;
    const voiced = ratio <= voicingFrom ? 0 : ratio >= voicingTo ? 1 : (ratio - voicingFrom) / (voicingTo - voicingFrom);
    if (voiced < 1) for (let bin = 0; bin < bins; bin++) comb[row + bin] *= voiced;
  }
}

/**
 * How much lower than a centred voice's this segment's vocal sits on the centre index: the harmonic power
 * under the (voiced) comb, weighted mean of c, against vocalCentreReference. A doubled, chorused or wide
 * vocal has c well below 1 at its own partials, and the centre ramp moves down by the difference (up to
 * vocalCentreMaxShift), so a wide voice is not handed to 'other' for being wide.
 */
function vocalCentreShift(share: Float32Array, frames: number, bins: number, params: FastParameters, work: MaskWorkspace): number {
  const { power, centre, comb, bassWeights } = work;
  let weighted = 0;
  let total = 1e-30;
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      const i = row + bin;
      const w = comb[i] * share[i] * power[i] * (1 - bassWeights[bin]);
      weighted += w * centre[i];
      total += w;
    }
  }
  const vocalCentre = weighted / total;
  return Math.min(params.vocalCentreMaxShift, Math.max(0, params.vocalCentreReference - vocalCentre));
}

function assignStems(share: Float32Array, frames: number, bins: number, params: FastParameters, work: MaskWorkspace, centreShift: number): void {
  const { centre, comb, narrowMasks, bassWeights } = work;
  const { vocals, drums, bass } = narrowMasks;
  const { subsonicBins, bassVocalShare } = params;
  const vocalCentreFrom = params.vocalCentreFrom - centreShift;
  const vocalCentreTo = params.vocalCentreTo - centreShift;
  const centreSpan = vocalCentreTo - vocalCentreFrom;
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      const i = row + bin;
      if (bin < subsonicBins) {
        vocals[i] = drums[i] = bass[i] = 0;
        continue;
      }
      const h = share[i];
      const c = centre[i];
      const low = bassWeights[bin];
      const vocalShare = comb[i] * (1 - (1 - bassVocalShare) * low);
      const vocalCentre = c <= vocalCentreFrom ? 0 : c >= vocalCentreTo ? 1 : (c - vocalCentreFrom) / centreSpan;
      drums[i] = 1 - h;
      vocals[i] = h * vocalCentre * vocalShare;
      bass[i] = c > 0 ? h * c * c * low * (1 - vocalShare) : 0;
    }
  }
}

function addVocalReverb(frames: number, bins: number, params: FastParameters, work: MaskWorkspace): void {
  const { power, reverb, narrowMasks } = work;
  const { vocals, drums, bass } = narrowMasks;
  const { reverbDecay } = params;
  const gain = fittedReverbGain(frames, bins, params, work);
  reverb.fill(0);
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      const i = row + bin;
      const tail = reverbDecay * reverb[bin] + gain * vocals[i] * power[i];
      reverb[bin] = tail;
      const other = 1 - vocals[i] - drums[i] - bass[i];
      const otherPower = other * power[i];
      vocals[i] += (other * tail) / (tail + otherPower + 1e-30);
    }
  }
}

/**
 * How wet this segment's vocal is: the least-squares gain g in otherPower ≈ baseline(bin) + g · U, where U
 * is the tail the vocal estimate would leave at gain 1, fitted over the segment's cells with each bin's
 * mean taken out (so a steady pad does not count, only what rises and falls with the voice's echo).
 * Clamped to reverbGainMin..reverbGainMax. Uses work.comb as scratch (assignStems is done with it).
 */
function fittedReverbGain(frames: number, bins: number, params: FastParameters, work: MaskWorkspace): number {
  const { power, reverb, narrowMasks, comb: unitTail } = work;
  const { vocals, drums, bass } = narrowMasks;
  const { reverbDecay, reverbGainMin, reverbGainMax } = params;
  if (frames < 2) return reverbGainMin;
  reverb.fill(0);
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      const tail = reverbDecay * reverb[bin] + vocals[row + bin] * power[row + bin];
      reverb[bin] = tail;
      unitTail[row + bin] = tail;
    }
  }
  let covariance = 0;
  let variance = 1e-30;
  for (let bin = 0; bin < bins; bin++) {
    let sumTail = 0;
    let sumOther = 0;
    let sumTailOther = 0;
    let sumTail2 = 0;
    for (let i = bin; i < frames * bins; i += bins) {
      const tail = unitTail[i];
      const other = (1 - vocals[i] - drums[i] - bass[i]) * power[i];
      sumTail += tail;
      sumOther += other;
      sumTailOther += tail * other;
      sumTail2 += tail * tail;
    }
    covariance += sumTailOther - (sumTail * sumOther) / frames;
    variance += sumTail2 - (sumTail * sumTail) / frames;
  }
  const fitted = covariance / variance;
  return Math.min(reverbGainMax, Math.max(reverbGainMin, fitted));
}
