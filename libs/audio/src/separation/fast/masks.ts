import { remedianFilter, remedianSpan, type StereoSpectrogram } from '../../dsp';
import type { FastParameters } from './parameters';

/**
 * Soft masks (0..1 per cell, applied to both channels) of the stems resynthesised from the spectrum;
 * 'other' is implicitly 1 − the rest (the separator takes it as the mixture minus the other stems).
 */
export interface StemMasks {
  vocals: Float32Array;
  drums: Float32Array;
  bass: Float32Array;
}

/** Grids one thread reuses from segment to segment, sized for the largest segment. */
export class MaskWorkspace {
  readonly power: Float32Array;
  readonly centre: Float32Array;
  readonly harmonic: Float32Array;
  readonly percussive: Float32Array;
  readonly scratch: Float32Array;
  readonly lowBand: LowBandGrids;
  readonly masks: StemMasks;

  constructor(maxFrames: number, bins: number, params: FastParameters) {
    const grid = () => new Float32Array(maxFrames * bins);
    this.power = grid();
    this.centre = grid();
    this.harmonic = grid();
    this.percussive = grid();
    this.scratch = grid();
    this.lowBand = new LowBandGrids(maxFrames, lowBandContextBins(params, bins));
    this.masks = { vocals: grid(), drums: grid(), bass: grid() };
  }
}

/** The bottom bins copied into a compact grid, so the low-band kernels only touch the bins they decide. */
class LowBandGrids {
  readonly power: Float32Array;
  readonly harmonic: Float32Array;
  readonly percussive: Float32Array;
  readonly scratch: Float32Array;

  constructor(
    maxFrames: number,
    readonly bins: number,
  ) {
    const grid = () => new Float32Array(maxFrames * bins);
    this.power = grid();
    this.harmonic = grid();
    this.percussive = grid();
    this.scratch = grid();
  }
}

/** Low-band bins plus the vertical kernel's reach, so bins below the split never see the grid's edge. */
function lowBandContextBins(params: FastParameters, bins: number): number {
  return Math.min(bins, params.lowBandBins + Math.floor(remedianSpan(params.lowPercussiveStages) / 2));
}

/**
 * Estimates the stem masks of one segment's spectrogram in three stages:
 *
 * 1. Cell features. Power of both channels summed (pan-independent), and the centre index
 *    c = 2·Re(L·R*) / (|L|² + |R|²): 1 where left and right are equal (a centred source: lead vocal, bass,
 *    kick and snare), lower where one side dominates or the channels are decorrelated (panned
 *    accompaniment, reverb). Its square is the centre weight.
 *
 * 2. Harmonic/percussive split by median filtering (FitzGerald 2010) on the power: a median along time
 *    keeps what is steady (partials), one along frequency keeps what is broadband (hits). The harmonic
 *    share H / (H + P) is a Wiener-style soft mask (power ratio). Below `lowBandBins` the kernels are
 *    shorter in time and narrower in frequency: there the question is a kick's short, wide bump versus a
 *    bass note's long, narrow partials, and the full-band kernels would call a four-on-the-floor kick
 *    "steady".
 *
 * 3. Stem assignment. Percussive → drums. Harmonic and centred → bass below the bass crossover (full
 *    weight to ≈ 180 Hz, fading out by ≈ 500 Hz), vocals above it. Everything else — harmonic but off
 *    centre (the panned accompaniment), reverb, the rest — is left to 'other'.
 */
export function estimateMasks(spec: StereoSpectrogram, params: FastParameters, work: MaskWorkspace): StemMasks {
  const { frames, bins } = spec;
  computeCellFeatures(spec, work);
  remedianFilter(work.power, work.harmonic, work.scratch, frames, bins, 'frames', params.harmonicStages);
  remedianFilter(work.power, work.percussive, work.scratch, frames, bins, 'bins', params.percussiveStages);
  splitLowBand(frames, bins, params, work);
  assignStems(frames, bins, params, work);
  return work.masks;
}

function computeCellFeatures(spec: StereoSpectrogram, work: MaskWorkspace): void {
  const { leftRe, leftIm, rightRe, rightIm } = spec;
  const { power, centre } = work;
  const cells = spec.frames * spec.bins;
  for (let i = 0; i < cells; i++) {
    const lRe = leftRe[i];
    const lIm = leftIm[i];
    const rRe = rightRe[i];
    const rIm = rightIm[i];
    const total = lRe * lRe + lIm * lIm + rRe * rRe + rIm * rIm + 1e-20;
    const index = (2 * (lRe * rRe + lIm * rIm)) / total;
    power[i] = total;
    centre[i] = index > 0 ? index * index : 0;
  }
}

/** Overwrites the harmonic and percussive estimates of the low-band bins with the low-band kernels'. */
function splitLowBand(frames: number, bins: number, params: FastParameters, work: MaskWorkspace): void {
  const low = work.lowBand;
  const lowBins = low.bins;
  for (let frame = 0; frame < frames; frame++) {
    low.power.set(work.power.subarray(frame * bins, frame * bins + lowBins), frame * lowBins);
  }
  remedianFilter(low.power, low.harmonic, low.scratch, frames, lowBins, 'frames', params.lowHarmonicStages);
  remedianFilter(low.power, low.percussive, low.scratch, frames, lowBins, 'bins', params.lowPercussiveStages);
  const decided = Math.min(params.lowBandBins, lowBins);
  for (let frame = 0; frame < frames; frame++) {
    work.harmonic.set(low.harmonic.subarray(frame * lowBins, frame * lowBins + decided), frame * bins);
    work.percussive.set(low.percussive.subarray(frame * lowBins, frame * lowBins + decided), frame * bins);
  }
}

function assignStems(frames: number, bins: number, params: FastParameters, work: MaskWorkspace): void {
  const { harmonic, percussive, centre, masks } = work;
  const { vocals, drums, bass } = masks;
  const { bassFullBin, bassEndBin } = params;
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      const i = row + bin;
      const h = harmonic[i];
      const harmonicShare = h / (h + percussive[i] + 1e-30);
      const bassWeight = bin <= bassFullBin ? 1 : bin >= bassEndBin ? 0 : (bassEndBin - bin) / (bassEndBin - bassFullBin);
      const centred = harmonicShare * centre[i];
      drums[i] = 1 - harmonicShare;
      bass[i] = centred * bassWeight;
      vocals[i] = centred * (1 - bassWeight);
    }
  }
}
