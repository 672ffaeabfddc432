/**
 * Running medians over a frame-major grid (value of `bin` in `frame` at frame·bins + bin), along either
 * axis: along 'frames' (a horizontal kernel in a spectrogram: keeps what is steady in time, i.e. harmonic
 * partials) or along 'bins' (a vertical kernel: keeps what is broadband in one instant, i.e. transients).
 *
 * A true running median of 17–31 taps costs far too much per cell for 20 M cells. We use the remedian
 * (Tukey's ninther generalised; Rousseeuw & Bassett 1990): a median of 3 or 5 taps, then a median of 3 or 5
 * of those results spaced by the first kernel's span, and so on. Stages [3, 3, 3] span 27 cells at the cost
 * of three 3-tap medians (a handful of min/max per cell), and like the median it rejects outliers narrower
 * than half the kernel — which is all that harmonic/percussive separation asks of it.
 * Cells past the edges repeat the edge value.
 */

export type GridAxis = 'frames' | 'bins';

/** Taps of the remedian with these stages (e.g. [3, 3, 3] → 27). */
export function remedianSpan(stages: readonly number[]): number {
  return stages.reduce((span, taps) => span * taps, 1);
}

/** Writes the remedian of `input` along `axis` into `output`; `scratch` (same size) holds stage results. */
export function remedianFilter(
  input: Float32Array,
  output: Float32Array,
  scratch: Float32Array,
  frames: number,
  bins: number,
  axis: GridAxis,
  stages: readonly number[],
): void {
  if (stages.length === 0) {
    output.set(input);
    return;
  }
  // Alternate between output and scratch so that the last stage lands in output.
  let source = input;
  let target = stages.length % 2 === 1 ? output : scratch;
  let spacing = 1;
  for (const taps of stages) {
    if (taps !== 3 && taps !== 5) throw new Error(`remedian stages must be 3 or 5 taps, got ${taps}`);
    if (axis === 'frames') medianAlongFrames(source, target, frames, bins, taps, spacing);
    else medianAlongBins(source, target, frames, bins, taps, spacing);
    spacing *= taps;
    source = target;
    target = target === output ? scratch : output;
  }
}

function median3(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

function median5(a: number, b: number, c: number, d: number, e: number): number {
  return median3(e, Math.max(Math.min(a, b), Math.min(c, d)), Math.min(Math.max(a, b), Math.max(c, d)));
}

function medianAlongFrames(
  input: Float32Array,
  output: Float32Array,
  frames: number,
  bins: number,
  taps: number,
  spacing: number,
): void {
  const last = frames - 1;
  const row = (frame: number) => Math.min(last, Math.max(0, frame)) * bins;
  for (let frame = 0; frame < frames; frame++) {
    const here = frame * bins;
    const before = row(frame - spacing);
    const after = row(frame + spacing);
    if (taps === 3) {
      for (let bin = 0; bin < bins; bin++) {
        output[here + bin] = median3(input[before + bin], input[here + bin], input[after + bin]);
      }
    } else {
      const farBefore = row(frame - 2 * spacing);
      const farAfter = row(frame + 2 * spacing);
      for (let bin = 0; bin < bins; bin++) {
        output[here + bin] = median5(
          input[farBefore + bin],
          input[before + bin],
          input[here + bin],
          input[after + bin],
          input[farAfter + bin],
        );
      }
    }
  }
}

function medianAlongBins(
  input: Float32Array,
  output: Float32Array,
  frames: number,
  bins: number,
  taps: number,
  spacing: number,
): void {
  const reach = ((taps - 1) / 2) * spacing;
  const far = 2 * spacing;
  const last = bins - 1;
  // Interior bins [reach, bins − reach) need no clamping: a tight loop. The few edge bins clamp.
  const interiorFrom = Math.min(reach, bins);
  const interiorTo = Math.max(interiorFrom, bins - reach);
  for (let frame = 0; frame < frames; frame++) {
    const base = frame * bins;
    const at = (bin: number) => input[base + Math.min(last, Math.max(0, bin))];
    const edge = (bin: number) => {
      output[base + bin] =
        taps === 3
          ? median3(at(bin - spacing), at(bin), at(bin + spacing))
          : median5(at(bin - far), at(bin - spacing), at(bin), at(bin + spacing), at(bin + far));
    };
    for (let bin = 0; bin < interiorFrom; bin++) edge(bin);
    if (taps === 3) {
      for (let i = base + interiorFrom; i < base + interiorTo; i++) {
        output[i] = median3(input[i - spacing], input[i], input[i + spacing]);
      }
    } else {
      for (let i = base + interiorFrom; i < base + interiorTo; i++) {
        output[i] = median5(input[i - far], input[i - spacing], input[i], input[i + spacing], input[i + far]);
      }
    }
    for (let bin = interiorTo; bin < bins; bin++) edge(bin);
  }
}
