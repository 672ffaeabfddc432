/**
 * The studio's master bus with the performance pads' momentary effects (Filter, Reverb, Delay,
 * Distort). Everything the studio plays (stems, instruments) goes through it to the speakers.
 * Native Web Audio nodes: input → low-pass → distortion (wet/dry) → delay send → reverb send → output, and
 * the output (the final sum, all three paths) into an analyser that the visualizer reads.
 */
export type MasterEffect = 'filter' | 'reverb' | 'delay' | 'distort';

const RAMP_S = 0.02;
const FILTER_OPEN_HZ = 20000;
const FILTER_CLOSED_HZ = 600;
/** The master analyser's FFT size (the visualizer's frames: 2048 samples, 1024 frequency bins). */
export const MASTER_ANALYSER_SIZE = 2048;
/**
 * Its byte scale spans −90…−10 dB (the default −100…−30 saturates on a loud master: every low bin would read
 * 255 and the beat detector would see no kick rise above the bass), smoothed less than the default 0.8 so
 * a kick's onset shows within a frame or two.
 */
export const MASTER_ANALYSER_DB = { min: -90, max: -10 } as const;
export const MASTER_ANALYSER_SMOOTHING = 0.6;

/** A decaying stereo noise burst: a small room's impulse response, made here (no files). */
function impulseResponse(context: BaseAudioContext, seconds: number, decay: number): AudioBuffer {
  const length = Math.round(seconds * context.sampleRate);
  const buffer = context.createBuffer(2, length, context.sampleRate);
  let seed = 0x2f6b1a3d; // deterministic: the same room every time
  const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 0xffffffff) * 2 - 1;
  for (let channel = 0; channel < 2; channel++) {
    const data = buffer.getChannelData(channel);
    for (let i = 0; i < length; i++) data[i] = random() * (1 - i / length) ** decay;
  }
  return buffer;
}

function distortionCurve(amount: number): Float32Array<ArrayBuffer> {
  const curve = new Float32Array(1024);
  for (let i = 0; i < curve.length; i++) {
    const x = (i / (curve.length - 1)) * 2 - 1;
    curve[i] = ((1 + amount) * x) / (1 + amount * Math.abs(x));
  }
  return curve;
}

export class MasterEffects {
  readonly input: GainNode;
  /** The sum of the dry path, the delay and the reverb: what goes to the speakers. */
  readonly output: GainNode;
  /** Listens to the output (it feeds nothing): still when nothing plays. */
  readonly analyser: AnalyserNode;
  private readonly filter: BiquadFilterNode;
  private readonly wet: Record<Exclude<MasterEffect, 'filter'>, GainNode>;
  private readonly dryDistort: GainNode;

  constructor(private readonly context: BaseAudioContext, destination: AudioNode = context.destination) {
    this.input = context.createGain();
    this.output = context.createGain();
    this.output.connect(destination);
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = MASTER_ANALYSER_SIZE;
    this.analyser.minDecibels = MASTER_ANALYSER_DB.min;
    this.analyser.maxDecibels = MASTER_ANALYSER_DB.max;
    this.analyser.smoothingTimeConstant = MASTER_ANALYSER_SMOOTHING;
    this.output.connect(this.analyser);
    this.filter = context.createBiquadFilter();
    this.filter.type = 'lowpass';
    this.filter.frequency.value = FILTER_OPEN_HZ;
    this.input.connect(this.filter);

    // Distortion is an insert: dry and shaped signals crossfade.
    const shaper = context.createWaveShaper();
    shaper.curve = distortionCurve(40);
    shaper.oversample = '4x';
    this.dryDistort = context.createGain();
    const distortWet = context.createGain();
    distortWet.gain.value = 0;
    const afterDistort = context.createGain();
    this.filter.connect(this.dryDistort).connect(afterDistort);
    this.filter.connect(shaper).connect(distortWet).connect(afterDistort);
    afterDistort.connect(this.output);

    // Delay and reverb are sends beside the dry path.
    const delay = context.createDelay(2);
    delay.delayTime.value = 0.375;
    const feedback = context.createGain();
    feedback.gain.value = 0.45;
    const delayWet = context.createGain();
    delayWet.gain.value = 0;
    afterDistort.connect(delayWet).connect(delay).connect(this.output);
    delay.connect(feedback).connect(delay);

    const convolver = context.createConvolver();
    convolver.buffer = impulseResponse(context, 2.2, 3);
    const reverbWet = context.createGain();
    reverbWet.gain.value = 0;
    afterDistort.connect(reverbWet).connect(convolver).connect(this.output);

    this.wet = { distort: distortWet, delay: delayWet, reverb: reverbWet };
  }

  /** Momentary: on while a pad is held. */
  set(effect: MasterEffect, on: boolean): void {
    const now = this.context.currentTime;
    if (effect === 'filter') {
      this.filter.frequency.cancelScheduledValues(now);
      this.filter.frequency.setTargetAtTime(on ? FILTER_CLOSED_HZ : FILTER_OPEN_HZ, now, RAMP_S);
      return;
    }
    this.wet[effect].gain.setTargetAtTime(on ? 1 : 0, now, RAMP_S);
    if (effect === 'distort') this.dryDistort.gain.setTargetAtTime(on ? 0 : 1, now, RAMP_S);
  }
}

let bus: MasterEffects | null = null;

/** The master bus on the studio's context (created with it). */
export function masterBus(context: AudioContext): MasterEffects {
  bus ??= new MasterEffects(context);
  return bus;
}

/** The analyser on the master bus's output (fftSize 2048): everything the studio plays, after the pads' effects. */
export function masterAnalyser(context: AudioContext): AnalyserNode {
  return masterBus(context).analyser;
}
