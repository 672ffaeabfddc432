import { StemLoader } from '../../audio/stemLoader';

export type AbSide = 'original' | 'master';

/** One track of the original: a stem's url and the gain the mix gives it (0 when muted or not soloed). */
export interface OriginalStem {
  url: string;
  gain: number;
}

/**
 * The A/B player of a master: the original (the project's stems, summed with their mix gains) and the
 * master play together from one context time and offset, so switching side is a gain change and never a
 * jump. Each side's bus carries its loudness-match gain; the unheard side is at 0. Plain TypeScript on the
 * given AudioContext; an analyser on the output lets the page show (and a test measure) that it sounds.
 */
export class AbPlayer {
  private readonly loader = new StemLoader();
  private context: AudioContext | null = null;
  private originalBus: GainNode | null = null;
  private masterBus: GainNode | null = null;
  private analyser: AnalyserNode | null = null;
  private original: Array<{ buffer: AudioBuffer; gain: number }> = [];
  private master: AudioBuffer | null = null;
  private sources: AudioBufferSourceNode[] = [];
  private startedAt = 0;
  private offset = 0;
  private side: AbSide = 'master';
  private gains = { original: 1, master: 1 };
  private endTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly contextOf: () => AudioContext) {}

  get loaded(): boolean {
    return this.master !== null;
  }

  get playing(): boolean {
    return this.sources.length > 0;
  }

  get duration(): number {
    return Math.max(this.master?.duration ?? 0, ...this.original.map((track) => track.buffer.duration));
  }

  /** Seconds from the start of the recording. */
  get position(): number {
    if (!this.context || !this.playing) return this.offset;
    return Math.min(this.duration, this.offset + this.context.currentTime - this.startedAt);
  }

  get selected(): AbSide {
    return this.side;
  }

  /** Called when play state, side or what is loaded changes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Fetches and decodes the original's stems and the master; resolves false when a newer load superseded it. */
  load(originals: readonly OriginalStem[], masterUrl: string): Promise<boolean> {
    this.stop();
    return this.loader.load([masterUrl, ...originals.map((stem) => stem.url)], () => this.ensureGraph(), ([master, ...stems]) => {
      this.master = master ?? null;
      this.original = stems.map((buffer, index) => ({ buffer, gain: originals[index]!.gain }));
      this.offset = 0;
      this.emit();
    });
  }

  /** Which side is heard, and each side's gain (loudness matching). */
  listen(side: AbSide, gains: { original: number; master: number }): void {
    this.side = side;
    this.gains = gains;
    this.applyGains();
    this.emit();
  }

  /** RMS of the output's last 2048 samples (0 when silent or not loaded). */
  level(): number {
    if (!this.analyser) return 0;
    const samples = new Float32Array(this.analyser.fftSize);
    this.analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return Math.sqrt(sum / samples.length);
  }

  async play(): Promise<void> {
    const context = this.ensureGraph();
    if (!this.master || this.playing) return;
    if (context.state === 'suspended') await context.resume();
    if (this.offset >= this.duration) this.offset = 0;
    const startAt = context.currentTime + 0.05;
    const start = (buffer: AudioBuffer, destination: AudioNode) => {
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(destination);
      source.start(startAt, Math.min(this.offset, buffer.duration));
      this.sources.push(source);
    };
    start(this.master, this.masterBus!);
    for (const track of this.original) {
      const gain = context.createGain();
      gain.gain.value = track.gain;
      gain.connect(this.originalBus!);
      start(track.buffer, gain);
    }
    this.startedAt = startAt;
    this.endTimer = setTimeout(() => this.pause(), (this.duration - this.offset + 0.1) * 1000);
    this.emit();
  }

  pause(): void {
    if (!this.playing) return;
    this.offset = this.position;
    this.stopSources();
    this.emit();
  }

  stop(): void {
    this.stopSources();
    this.offset = 0;
    this.emit();
  }

  dispose(): void {
    this.loader.cancel();
    this.stop();
    this.listeners.clear();
    this.originalBus?.disconnect();
    this.masterBus?.disconnect();
    this.analyser?.disconnect();
  }

  private stopSources(): void {
    clearTimeout(this.endTimer);
    for (const source of this.sources.splice(0)) {
      source.onended = null;
      try {
        source.stop();
      } catch {
        // not started yet on the audio clock: nothing to stop
      }
      source.disconnect();
    }
  }

  private ensureGraph(): AudioContext {
    if (this.context) return this.context;
    const context = this.contextOf();
    this.context = context;
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 2048;
    this.analyser.connect(context.destination);
    this.originalBus = context.createGain();
    this.masterBus = context.createGain();
    this.originalBus.connect(this.analyser);
    this.masterBus.connect(this.analyser);
    this.applyGains();
    return context;
  }

  private applyGains(): void {
    if (!this.context || !this.originalBus || !this.masterBus) return;
    const now = this.context.currentTime;
    // A short ramp: switching side does not click.
    this.originalBus.gain.setTargetAtTime(this.side === 'original' ? this.gains.original : 0, now, 0.01);
    this.masterBus.gain.setTargetAtTime(this.side === 'master' ? this.gains.master : 0, now, 0.01);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
