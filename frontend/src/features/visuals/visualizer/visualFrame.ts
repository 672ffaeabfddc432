/**
 * What every visualizer mode draws from: one analyser frame (time-domain and frequency bytes, as the
 * master bus's AnalyserNode gives them) with the beat pulse and tempo. The studio makes them from the live
 * signal; an output window receives them from the studio (output/frameCodec.ts).
 */
export const VISUAL_MODES = ['waveform', 'spectrum', 'particles', 'circular', 'bars3d', 'milkdrop'] as const;
export type VisualMode = (typeof VISUAL_MODES)[number];

export const MODE_LABELS: Record<VisualMode, string> = {
  waveform: 'Waveform',
  spectrum: 'Spectrum',
  particles: 'Particles',
  circular: 'Circular',
  bars3d: '3D Bars',
  milkdrop: 'Milkdrop',
};

/** Modes drawn with WebGL (three.js, butterchurn); the others draw on a 2D canvas. */
export const WEBGL_MODES: ReadonlySet<VisualMode> = new Set<VisualMode>(['bars3d', 'milkdrop']);

export interface VisualFrame {
  /** Time-domain bytes (getByteTimeDomainData): 128 is silence. */
  waveform: Uint8Array;
  /** Frequency bytes (getByteFrequencyData), low to high. */
  spectrum: Uint8Array;
  /** The beat flash: 1 on a beat, decaying to 0 before the next. */
  pulse: number;
  /** A beat lands in this frame. */
  beat: boolean;
  bpm: number;
  timeMs: number;
}

export interface Size {
  width: number;
  height: number;
}

/** A frame of silence (what the visualizer shows before anything plays). */
export function silentFrame(waveformLength = 2048, spectrumLength = 1024): VisualFrame {
  return { waveform: new Uint8Array(waveformLength).fill(128), spectrum: new Uint8Array(spectrumLength), pulse: 0, beat: false, bpm: 120, timeMs: 0 };
}

/** Whether the frame carries no sound at all (waveform flat at 128 ±1, spectrum empty). */
export function isSilent(frame: VisualFrame): boolean {
  for (let i = 0; i < frame.waveform.length; i++) if (Math.abs(frame.waveform[i]! - 128) > 1) return false;
  for (let i = 0; i < frame.spectrum.length; i++) if (frame.spectrum[i]! > 0) return false;
  return true;
}

/** Mean of the spectrum bytes between two fractions of its length, 0–1. */
export function bandEnergy(spectrum: Uint8Array, from: number, to: number): number {
  const start = Math.floor(from * spectrum.length);
  const end = Math.max(start + 1, Math.floor(to * spectrum.length));
  let sum = 0;
  for (let i = start; i < end; i++) sum += spectrum[i] ?? 0;
  return sum / (end - start) / 255;
}

/**
 * `count` bands spaced logarithmically from the first bin above DC to `topFraction` of the spectrum, each the
 * loudest bin in it (0–1), written into `into`.
 */
export function logBands(spectrum: Uint8Array, count: number, into: Float32Array, topFraction = 0.7): Float32Array {
  const top = Math.max(2, Math.floor(spectrum.length * topFraction));
  for (let band = 0; band < count; band++) {
    const from = Math.floor(Math.pow(top, band / count));
    const to = Math.max(from + 1, Math.floor(Math.pow(top, (band + 1) / count)));
    let peak = 0;
    for (let bin = from; bin < to; bin++) peak = Math.max(peak, spectrum[bin] ?? 0);
    into[band] = peak / 255;
  }
  return into;
}
