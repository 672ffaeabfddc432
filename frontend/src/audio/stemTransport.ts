import type { MixGraph } from './mixGraph';
import { BeatTracker, LEVEL_EVENT_THRESHOLD, PlaybackEventStream, beatEvent, levelEvent, transportEvent } from './playbackEvents';
import { PlayerError, START_AHEAD_S, type PlaybackStatus, type PlayerStem } from './stemPlayback';

export interface StemTransportDeps {
  /** Milliseconds for event timestamps. */
  now(): number;
  /** Called once per swap of stems, on the first tick at which a stem is heard (the first-audible benchmark's mark). */
  onAudible?: () => void;
}

const TICK_MS = 25;
/** Levels go out every 4th tick: every 100 ms. */
const LEVEL_EVERY_TICKS = 4;
/** About −60 dBFS: the level at which a stem counts as heard. */
const AUDIBLE_RMS = 0.001;

/**
 * Play, pause, stop and seek over a mix graph, on the graph's context clock: the playhead, a 25 ms ticker
 * while playing that emits beat and level events (playbackEvents.ts), transport events on every change,
 * stopping at the end, and waiting at the end of progressive stems (the first seconds) for the whole ones.
 */
export class StemTransport {
  readonly events = new PlaybackEventStream();
  duration = 0;
  bpm = 120;
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
  private heard = false;
  /** Seconds the loaded buffers hold while they are progressive (the first seconds); null when whole. */
  private available: number | null = null;
  /** Playing, but the playhead reached the end of the progressive buffers: waiting for the rest. */
  private waiting = false;

  constructor(
    private readonly graph: MixGraph,
    private readonly deps: StemTransportDeps,
  ) {}

  get playing(): boolean {
    return this.isPlaying;
  }

  get status(): PlaybackStatus {
    return this.currentStatus;
  }

  get stalled(): boolean {
    return this.waiting;
  }

  get position(): number {
    const clock = this.graph.context;
    if (!this.isPlaying || this.waiting || !clock) return this.pausedAt;
    const elapsed = Math.max(0, clock.currentTime - this.startedAt);
    return Math.min(this.duration, this.startOffset + elapsed);
  }

  onPosition(listener: (position: number, status: PlaybackStatus) => void): () => void {
    this.positionListeners.add(listener);
    return () => this.positionListeners.delete(listener);
  }

  /**
   * Puts new stems in the graph; while playing (or waiting for them) it goes on at the current position.
   * `partialSeconds` marks progressive stems, at whose end playback waits instead of running on in silence.
   */
  replaceStems(stems: readonly PlayerStem[], buffers: readonly AudioBuffer[], context: AudioContext, partialSeconds: number | null): void {
    this.heard = false;
    const wasPlaying = this.isPlaying;
    const position = this.position;
    this.waiting = false;
    this.available = partialSeconds;
    this.isPlaying = false;
    this.graph.swap(stems, buffers, context);
    if (wasPlaying) this.startSources(position);
  }

  /**
   * Swaps one stem's recording (another version of it) without stopping the others or moving the playhead:
   * while playing, the new one starts where the shared clock says that stem is. False when it is not loaded.
   */
  replaceStem(stem: PlayerStem, buffer: AudioBuffer): boolean {
    const context = this.graph.context;
    if (!this.isPlaying || this.waiting || !context) return this.graph.replaceChannel(stem, buffer, null);
    const when = context.currentTime + START_AHEAD_S;
    return this.graph.replaceChannel(stem, buffer, { when, offset: this.startOffset + (when - this.startedAt) });
  }

  /** Back to nothing loaded: stopped at 0 (announced if it was playing), the graph emptied. */
  clear(): void {
    if (this.isPlaying) this.announce('stop');
    this.stopSources();
    this.graph.clear();
    this.pausedAt = 0;
    this.available = null;
    this.waiting = false;
    this.hasPlayed = false;
    this.currentStatus = 'stopped';
  }

  /** Plays the loaded stems from the current position on `context`, resuming it if it is suspended. */
  async play(context: AudioContext): Promise<void> {
    if (context.state === 'suspended') await context.resume().catch(() => undefined);
    if (context.state !== 'running') throw new PlayerError('context-not-ready', 'Please try again in a moment');
    const resumed = this.hasPlayed && this.pausedAt > 0;
    this.startSources(this.pausedAt >= this.duration ? 0 : this.pausedAt);
    this.hasPlayed = true;
    this.currentStatus = 'playing';
    this.events.emit(transportEvent('play', this.startOffset, resumed, this.deps.now()));
    this.startTicker();
    this.notify();
  }

  pause(): void {
    if (!this.isPlaying) return;
    this.pausedAt = this.position;
    this.waiting = false;
    this.stopSources();
    this.currentStatus = 'paused';
    this.announce('pause');
  }

  stop(): void {
    const wasPlaying = this.isPlaying;
    this.stopSources();
    this.waiting = false;
    this.pausedAt = 0;
    this.beats.reset();
    this.currentStatus = 'stopped';
    if (wasPlaying || this.hasPlayed) this.announce('stop');
    else this.notify();
  }

  seek(seconds: number): void {
    const target = Math.min(Math.max(0, seconds), this.duration);
    this.beats.reset();
    if (this.isPlaying && !this.waiting) this.startSources(target);
    else this.pausedAt = target;
    this.notify();
  }

  private startSources(offset: number): void {
    this.startedAt = this.graph.startSources(offset);
    this.startOffset = offset;
    this.isPlaying = true;
  }

  private stopSources(): void {
    this.graph.stopSources();
    this.isPlaying = false;
  }

  private announce(action: 'pause' | 'stop'): void {
    this.stopTicker();
    this.events.emit(transportEvent(action, this.pausedAt, false, this.deps.now()));
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
    if (beat !== null) this.events.emit(beatEvent(beat, this.bpm, position, this.deps.now()));
    if (!this.heard && Object.values(this.graph.levels()).some((rms) => rms > AUDIBLE_RMS)) {
      this.heard = true;
      this.deps.onAudible?.();
    }
    if (++this.ticks % LEVEL_EVERY_TICKS === 0) {
      const levels = this.graph.levels();
      for (const stem of this.graph.stems) {
        const rms = levels[stem.id] ?? 0;
        if (rms > LEVEL_EVENT_THRESHOLD) this.events.emit(levelEvent(stem.type, rms, this.deps.now()));
      }
    }
    this.notify();
  }

  private notify(): void {
    const position = this.position;
    for (const listener of this.positionListeners) listener(position, this.currentStatus);
  }
}
