import type { StemType } from '../api/mediaTypes';
import { effectiveGain } from '../features/separator/stems';
import { BeatTracker, LEVEL_EVENT_THRESHOLD, PlaybackEventStream, beatEvent, levelEvent, transportEvent } from './playbackEvents';

export interface PlayerStem {
  id: string;
  type: StemType;
  url: string;
  volume: number;
  muted: boolean;
  soloed: boolean;
}

export type PlaybackStatus = 'stopped' | 'playing' | 'paused';

export type PlayerErrorCode = 'no-audio' | 'context-failed' | 'context-not-ready' | 'load-failed';

export class PlayerError extends Error {
  constructor(
    readonly code: PlayerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface Channel {
  stem: PlayerStem;
  buffer: AudioBuffer;
  gain: GainNode;
  analyser: AnalyserNode;
  samples: Float32Array<ArrayBuffer>;
  source: AudioBufferSourceNode | null;
}

export interface StemPlayerDeps {
  context(): AudioContext;
  fetch?: typeof fetch;
  /** Milliseconds for event timestamps. */
  now?: () => number;
  /** Called once per load, on the first tick at which a stem is heard (the first-audible benchmark's mark). */
  onAudible?: () => void;
  /** Where the player's master goes (the studio's master bus); the context's speakers by default. */
  output?: (context: AudioContext) => AudioNode;
}

/** Seed 000 §9: analyser FFT size 1024, smoothing 0.8; meters refresh every 100 ms. */
const FFT_SIZE = 1024;
const SMOOTHING = 0.8;
const TICK_MS = 25;
const LEVEL_EVERY_TICKS = 4;
/** Sources start this far ahead so every stem is scheduled before the shared start time arrives. */
const START_AHEAD_S = 0.03;
/** About −60 dBFS: the level at which a stem counts as heard. */
const AUDIBLE_RMS = 0.001;

/**
 * Plays a project's stems on the studio's one AudioContext: one AudioBufferSourceNode per stem, all
 * started at the same context time and offset, so they stay sample-aligned through pause and seek.
 * Each stem runs source → gain (volume/mute/solo) → analyser (its meter) → master → speakers. While
 * playing it emits transport, beat and level events (playbackEvents.ts). Plain TypeScript, no React.
 */
export class StemPlayer {
  readonly events = new PlaybackEventStream();
  private channels: Channel[] = [];
  private master: GainNode | null = null;
  private startedAt = 0;
  private startOffset = 0;
  private pausedAt = 0;
  private isPlaying = false;
  private hasPlayed = false;
  private currentStatus: PlaybackStatus = 'stopped';
  private ticker: ReturnType<typeof setInterval> | null = null;
  private ticks = 0;
  private readonly beats = new BeatTracker();
  private readonly positionListeners = new Set<(position: number, status: PlaybackStatus) => void>();
  private loadGeneration = 0;
  private heard = false;
  private pendingLoad: Promise<boolean> | null = null;
  /** Seconds the loaded buffers hold while they are progressive (the first seconds); null when whole. */
  private available: number | null = null;
  /** Playing, but the playhead reached the end of the progressive buffers: waiting for the rest. */
  private waiting = false;
  duration = 0;
  bpm = 120;

  constructor(private readonly deps: StemPlayerDeps) {}

  get playing(): boolean {
    return this.isPlaying;
  }

  get status(): PlaybackStatus {
    return this.currentStatus;
  }

  get loaded(): boolean {
    return this.channels.length > 0;
  }

  /** True while playback waits at the end of the first seconds for the whole stems. */
  get stalled(): boolean {
    return this.waiting;
  }

  get position(): number {
    if (!this.isPlaying || this.waiting || !this.master) return this.pausedAt;
    const elapsed = Math.max(0, this.master.context.currentTime - this.startedAt);
    return Math.min(this.duration, this.startOffset + elapsed);
  }

  /** Called on every tick while playing and on every transport change. */
  onPosition(listener: (position: number, status: PlaybackStatus) => void): () => void {
    this.positionListeners.add(listener);
    return () => this.positionListeners.delete(listener);
  }

  /**
   * Fetches and decodes every stem, then swaps them in (while playing, at the current position). A later
   * load supersedes an earlier one still in flight (e.g. the whole stems arriving after the first seconds):
   * the superseded one resolves false, whatever happened to it. `partialSeconds` marks progressive stems,
   * at whose end playback waits for the whole ones instead of running on in silence.
   */
  load(stems: PlayerStem[], partialSeconds: number | null = null): Promise<boolean> {
    const loading = this.decodeAndSwap(stems, partialSeconds);
    this.pendingLoad = loading;
    const settle = () => void (this.pendingLoad === loading && (this.pendingLoad = null));
    loading.then(settle, settle);
    return loading;
  }

  private async decodeAndSwap(stems: PlayerStem[], partialSeconds: number | null): Promise<boolean> {
    const generation = ++this.loadGeneration;
    const context = this.context();
    const doFetch = this.deps.fetch ?? fetch.bind(globalThis);
    let buffers: AudioBuffer[];
    try {
      buffers = await Promise.all(
        stems.map(async (stem) => {
          const response = await doFetch(stem.url, { credentials: 'include', cache: 'no-cache' });
          if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
          return context.decodeAudioData(await response.arrayBuffer());
        }),
      );
    } catch (error) {
      if (generation !== this.loadGeneration) return false;
      throw new PlayerError('load-failed', (error as Error).message);
    }
    if (generation !== this.loadGeneration) return false;
    this.heard = false;
    const wasPlaying = this.isPlaying;
    const position = this.position;
    this.waiting = false;
    this.available = partialSeconds;
    this.stopSources();
    this.disconnect();
    this.master ??= context.createGain();
    this.master.connect(this.deps.output?.(context) ?? context.destination);
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
    if (wasPlaying) this.startSources(position);
    return true;
  }

  /** Drops the stems (a new project is being loaded). */
  unload(): void {
    this.loadGeneration++;
    this.pendingLoad = null;
    if (this.isPlaying) this.transport('stop');
    this.stopSources();
    this.disconnect();
    this.channels = [];
    this.pausedAt = 0;
    this.available = null;
    this.waiting = false;
    this.hasPlayed = false;
    this.currentStatus = 'stopped';
  }

  /** Volume, mute and solo, applied at once. */
  setMix(stems: Array<Pick<PlayerStem, 'id' | 'volume' | 'muted' | 'soloed'>>): void {
    for (const channel of this.channels) {
      const update = stems.find((stem) => stem.id === channel.stem.id);
      if (update) channel.stem = { ...channel.stem, volume: update.volume, muted: update.muted, soloed: update.soloed };
    }
    this.applyMix();
  }

  /** Plays from the current position; stems still being fetched are waited for (Play pressed as they land). */
  async play(): Promise<void> {
    if (this.isPlaying) return;
    // A newer load may supersede the one pending now: wait until one of them has swapped stems in.
    while (!this.loaded && this.pendingLoad) await this.pendingLoad.catch(() => false);
    if (this.isPlaying) return;
    if (!this.loaded) throw new PlayerError('no-audio', 'Please load an audio file first');
    const context = this.context();
    if (context.state === 'suspended') await context.resume().catch(() => undefined);
    if (context.state !== 'running') throw new PlayerError('context-not-ready', 'Please try again in a moment');
    const resumed = this.hasPlayed && this.pausedAt > 0;
    this.startSources(this.pausedAt >= this.duration ? 0 : this.pausedAt);
    this.hasPlayed = true;
    this.currentStatus = 'playing';
    this.events.emit(transportEvent('play', this.startOffset, resumed, this.now()));
    this.startTicker();
    this.notify();
  }

  pause(): void {
    if (!this.isPlaying) return;
    this.pausedAt = this.position;
    this.waiting = false;
    this.stopSources();
    this.currentStatus = 'paused';
    this.transport('pause');
  }

  stop(): void {
    const wasPlaying = this.isPlaying;
    this.stopSources();
    this.waiting = false;
    this.pausedAt = 0;
    this.beats.reset();
    this.currentStatus = 'stopped';
    if (wasPlaying || this.hasPlayed) this.transport('stop');
    else this.notify();
  }

  seek(seconds: number): void {
    const target = Math.min(Math.max(0, seconds), this.duration);
    this.beats.reset();
    if (this.isPlaying && !this.waiting) this.startSources(target);
    else this.pausedAt = target;
    this.notify();
  }

  /**
   * Performance pads: plays `repeats` back-to-back copies of a `length`-second slice of one stem, from
   * `offset` (the playhead by default), starting now, on top of the mix and past the stem's own gain (a
   * muted stem can still be triggered). Returns false when that stem is not loaded.
   */
  playSlice(type: StemType, length: number, repeats = 1, offset = this.position): boolean {
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

  /** RMS of each stem's analyser, after its gain: a muted stem reads 0. */
  levels(): Record<string, number> {
    const levels: Record<string, number> = {};
    for (const channel of this.channels) {
      channel.analyser.getFloatTimeDomainData(channel.samples);
      let sum = 0;
      for (const sample of channel.samples) sum += sample * sample;
      levels[channel.stem.id] = this.isPlaying ? Math.sqrt(sum / channel.samples.length) : 0;
    }
    return levels;
  }

  /** Peak envelope of the mix (the stems summed), `bins` values in 0…1, for the timeline's waveform. */
  waveform(bins: number): Float32Array {
    const peaks = new Float32Array(bins);
    if (!this.channels.length || !(this.duration > 0)) return peaks;
    const data = this.channels.flatMap((c) => Array.from({ length: c.buffer.numberOfChannels }, (_, i) => c.buffer.getChannelData(i)));
    const rate = this.channels[0]!.buffer.sampleRate;
    const perBin = (this.duration * rate) / bins;
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

  private context(): AudioContext {
    try {
      return this.deps.context();
    } catch {
      throw new PlayerError('context-failed', 'Failed to initialize audio context');
    }
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  private applyMix(): void {
    const anySoloed = this.channels.some((c) => c.stem.soloed);
    for (const channel of this.channels) {
      const gain = effectiveGain(channel.stem, anySoloed);
      channel.gain.gain.setTargetAtTime(gain, channel.gain.context.currentTime, 0.005);
    }
  }

  /** Every stem starts at one shared context time and offset: sample-aligned by construction. */
  private startSources(offset: number): void {
    this.stopSources();
    const context = this.master!.context;
    const when = context.currentTime + START_AHEAD_S;
    for (const channel of this.channels) {
      const source = context.createBufferSource();
      source.buffer = channel.buffer;
      source.connect(channel.gain);
      if (offset < channel.buffer.duration) source.start(when, offset);
      channel.source = source;
    }
    this.startedAt = when;
    this.startOffset = offset;
    this.isPlaying = true;
  }

  private stopSources(): void {
    for (const channel of this.channels) {
      if (!channel.source) continue;
      try {
        channel.source.stop();
      } catch {
        // never started (offset past a partial stem's end)
      }
      channel.source.disconnect();
      channel.source = null;
    }
    this.isPlaying = false;
  }

  private disconnect(): void {
    for (const channel of this.channels) {
      channel.gain.disconnect();
      channel.analyser.disconnect();
    }
  }

  private transport(action: 'pause' | 'stop'): void {
    this.stopTicker();
    this.events.emit(transportEvent(action, this.pausedAt, false, this.now()));
    this.notify();
  }

  private startTicker(): void {
    this.stopTicker();
    this.ticks = 0;
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  private tick(): void {
    const position = this.position;
    if (this.duration > 0 && position >= this.duration) {
      this.stop();
      return;
    }
    if (this.waiting) return this.notify();
    if (this.available !== null && position >= this.available) {
      // The first seconds have run out: hold here (still "playing") until the whole stems swap in.
      this.stopSources();
      this.isPlaying = true;
      this.waiting = true;
      this.pausedAt = position;
      return this.notify();
    }
    const beat = this.beats.check(position, this.bpm);
    if (beat !== null) this.events.emit(beatEvent(beat, this.bpm, position, this.now()));
    if (!this.heard && Object.values(this.levels()).some((rms) => rms > AUDIBLE_RMS)) {
      this.heard = true;
      this.deps.onAudible?.();
    }
    if (++this.ticks % LEVEL_EVERY_TICKS === 0) {
      const levels = this.levels();
      for (const channel of this.channels) {
        const rms = levels[channel.stem.id] ?? 0;
        if (rms > LEVEL_EVENT_THRESHOLD) this.events.emit(levelEvent(channel.stem.type, rms, this.now()));
      }
    }
    this.notify();
  }

  private notify(): void {
    const position = this.position;
    for (const listener of this.positionListeners) listener(position, this.currentStatus);
  }
}
