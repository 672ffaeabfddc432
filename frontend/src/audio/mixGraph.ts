import type { StemType } from '../api/mediaTypes';
import { effectiveGain, type StemMix } from './stemGain';
import { START_AHEAD_S, type PlayerStem } from './stemPlayback';

/** Analyser FFT size 1024 and smoothing 0.8: each stem's meter. */
const FFT_SIZE = 1024;
const SMOOTHING = 0.8;
/** Time constant of a gain change: fast enough to feel instant, slow enough not to click. */
const GAIN_SMOOTHING_S = 0.005;

interface Channel {
  stem: PlayerStem;
  buffer: AudioBuffer;
  gain: GainNode;
  analyser: AnalyserNode;
  samples: Float32Array<ArrayBuffer>;
  source: AudioBufferSourceNode | null;
}

/**
 * The stems' audio graph: per stem source → gain (volume/mute/solo) → analyser (its meter) → master →
 * output. It starts and stops the sources it is told to; when and where to play is the transport's.
 */
export class MixGraph {
  private channels: Channel[] = [];
  private master: GainNode | null = null;

  /** `output` is where the master goes (the studio's master bus); the context's speakers by default. */
  constructor(private readonly output?: (context: AudioContext) => AudioNode) {}

  get loaded(): boolean {
    return this.channels.length > 0;
  }

  /** The context the graph plays on (its clock); null before the first stems. */
  get context(): BaseAudioContext | null {
    return this.master?.context ?? null;
  }

  /** The stems in the graph, in load order. */
  get stems(): PlayerStem[] {
    return this.channels.map((channel) => channel.stem);
  }

  /** Replaces the stems (their sources stopped) with new ones on fresh gains and analysers, mixed as they say. */
  swap(stems: readonly PlayerStem[], buffers: readonly AudioBuffer[], context: AudioContext): void {
    this.stopSources();
    this.disconnect();
    this.master ??= context.createGain();
    this.master.connect(this.output?.(context) ?? context.destination);
    this.channels = stems.map((stem, index) => {
      const gain = context.createGain();
      const analyser = context.createAnalyser();
      analyser.fftSize = FFT_SIZE;
      analyser.smoothingTimeConstant = SMOOTHING;
      gain.connect(analyser);
      analyser.connect(this.master!);
      return { stem, buffer: buffers[index]!, gain, analyser, samples: new Float32Array(FFT_SIZE), source: null };
    });
    this.applyMix();
  }

  /**
   * Puts another recording of one stem (its enhanced or original version) in that stem's channel, its gain,
   * analyser and mix kept. With `start` (while playing) the old source stops and the new one starts at the
   * same context time, from the offset the transport's clock gives for it: no gap, the others untouched and
   * still sample-aligned. False when that stem is not in the graph.
   */
  replaceChannel(stem: PlayerStem, buffer: AudioBuffer, start: { when: number; offset: number } | null): boolean {
    const channel = this.channels.find((c) => c.stem.id === stem.id);
    if (!channel) return false;
    const old = channel.source;
    channel.stem = { ...stem, volume: channel.stem.volume, muted: channel.stem.muted, soloed: channel.stem.soloed };
    channel.buffer = buffer;
    channel.source = null;
    if (old) {
      try {
        old.stop(start?.when ?? 0);
      } catch {
        // never started (offset past a partial stem's end)
      }
      old.onended = () => old.disconnect();
      if (!start) old.disconnect();
    }
    if (start) channel.source = this.startChannel(channel, start.when, start.offset);
    return true;
  }

  /** Drops the stems (their sources stopped); the master stays for the next ones. */
  clear(): void {
    this.stopSources();
    this.disconnect();
    this.channels = [];
  }

  /** Volume, mute and solo by stem id, applied at once. */
  setMix(stems: ReadonlyArray<StemMix & { id: string }>): void {
    for (const channel of this.channels) {
      const update = stems.find((stem) => stem.id === channel.stem.id);
      if (update) channel.stem = { ...channel.stem, volume: update.volume, muted: update.muted, soloed: update.soloed };
    }
    this.applyMix();
  }

  /**
   * Starts every stem at one shared context time and offset (sample-aligned by construction), after stopping
   * what was playing. A stem shorter than the offset stays silent. Returns the start time.
   */
  startSources(offset: number): number {
    this.stopSources();
    const context = this.master!.context;
    const when = context.currentTime + START_AHEAD_S;
    for (const channel of this.channels) channel.source = this.startChannel(channel, when, offset);
    return when;
  }

  private startChannel(channel: Channel, when: number, offset: number): AudioBufferSourceNode {
    const source = this.master!.context.createBufferSource();
    source.buffer = channel.buffer;
    source.connect(channel.gain);
    if (offset < channel.buffer.duration) source.start(when, offset);
    return source;
  }

  stopSources(): void {
    stopChannelSources(this.channels);
  }

  /**
   * Performance pads: plays `repeats` back-to-back copies of a `length`-second slice of one stem from
   * `offset`, starting now, on top of the mix and past the stem's own gain (a muted stem can still be
   * triggered). Returns false when that stem is not loaded.
   */
  playSlice(type: StemType, length: number, repeats: number, offset: number): boolean {
    const channel = this.channels.find((c) => c.stem.type === type);
    if (!channel || !this.master) return false;
    const context = this.master.context;
    const from = Math.min(Math.max(0, offset), Math.max(0, channel.buffer.duration - length));
    const when = context.currentTime + START_AHEAD_S;
    for (let i = 0; i < repeats; i++) {
      const source = context.createBufferSource();
      source.buffer = channel.buffer;
      source.connect(channel.analyser);
      source.start(when + i * length, from, length);
      source.onended = () => source.disconnect();
    }
    return true;
  }

  /** RMS of each stem's analyser by stem id, after its gain: a muted stem reads 0. */
  levels(): Record<string, number> {
    const levels: Record<string, number> = {};
    for (const channel of this.channels) {
      channel.analyser.getFloatTimeDomainData(channel.samples);
      let sum = 0;
      for (const sample of channel.samples) sum += sample * sample;
      levels[channel.stem.id] = Math.sqrt(sum / channel.samples.length);
    }
    return levels;
  }

  /** Peak envelope of the first `duration` seconds of the mix (the stems summed), `bins` values in 0…1. */
  waveform(bins: number, duration: number): Float32Array {
    const peaks = new Float32Array(bins);
    if (!this.channels.length || !(duration > 0)) return peaks;
    const data = this.channels.flatMap((c) => Array.from({ length: c.buffer.numberOfChannels }, (_, i) => c.buffer.getChannelData(i)));
    const rate = this.channels[0]!.buffer.sampleRate;
    const perBin = (duration * rate) / bins;
    const stride = Math.max(1, Math.floor(perBin / 64));
    for (let bin = 0; bin < bins; bin++) {
      const from = Math.floor(bin * perBin);
      const to = Math.floor((bin + 1) * perBin);
      let peak = 0;
      for (let i = from; i < to; i += stride) {
        let sum = 0;
        for (const samples of data) sum += samples[i] ?? 0;
        peak = Math.max(peak, Math.abs(sum) / 2);
      }
      peaks[bin] = Math.min(1, peak);
    }
    return peaks;
  }

  private applyMix(): void {
    const anySoloed = this.channels.some((c) => c.stem.soloed);
    for (const channel of this.channels) {
      channel.gain.gain.setTargetAtTime(effectiveGain(channel.stem, anySoloed), channel.gain.context.currentTime, GAIN_SMOOTHING_S);
    }
  }

  private disconnect(): void {
    for (const channel of this.channels) {
      channel.gain.disconnect();
      channel.analyser.disconnect();
    }
  }
}

/** Stops and lets go of each channel's running source (the mixer's and a session player's stems alike). */
export function stopChannelSources(channels: Iterable<{ source: AudioBufferSourceNode | null }>): void {
  for (const channel of channels) {
    if (!channel.source) continue;
    try {
      channel.source.stop();
    } catch {
      // never started (its offset was past the stem's end, so it was never given a start)
    }
    channel.source.disconnect();
    channel.source = null;
  }
}
