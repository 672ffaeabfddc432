import type { SessionMix, Stem, Transport } from '@stemdeck/proto';
import { ensureAudioContext } from '../../../audio/audioContext';
import { stopChannelSources } from '../../../audio/mixGraph';
import { StemLoader } from '../../../audio/stemLoader';
import type { SessionClock } from './sessionClock';
import { sessionBus } from './sessionBus';

/** A start is scheduled at least this far ahead of the audio clock, so every stem is queued before it comes. */
export const SCHEDULE_AHEAD_S = 0.05;
/** While playing, the start is checked against the session clock this often… */
export const DRIFT_CHECK_MS = 2000;
/** …and playback restarts in place when it has moved further than this from where the song should be. */
export const RESYNC_THRESHOLD_S = 0.025;
/** A play that comes before the clock's first sample waits this long for it, then starts anyway. */
export const CLOCK_WAIT_MS = 1500;
/** Time constant of a gain change: quick, without clicks. */
const GAIN_SMOOTHING_S = 0.01;

/** The clock the player follows (SessionClock's reading side). */
export type TransportClock = Pick<SessionClock, 'serverTimeAt' | 'perfTimeOf' | 'synced' | 'onChange'>;

export interface SessionPlayerDeps {
  /** The studio's AudioContext (made on first use). */
  context?: () => AudioContext;
  /** Where the stems go, and whose gain is the master volume: the session bus into the studio's master bus. */
  bus?: (context: AudioContext) => GainNode;
  fetch?: typeof fetch;
  /** performance.now() and performance.timeOrigin (swapped in tests). */
  now?: () => number;
  timeOrigin?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

interface Channel {
  stemId: string;
  buffer: AudioBuffer;
  gain: GainNode;
  source: AudioBufferSourceNode | null;
}

/** Where the sources were started: at context time `when` the song is at `offset` seconds. */
interface Started {
  when: number;
  offset: number;
}

/**
 * Plays a session's project stems for one participant, in step with everyone else. The shared transport
 * says where the song is at a server time (`position` at `at`); the session clock turns that server time into
 * this page's clock, and AudioContext.getOutputTimestamp turns that into the audio clock, so every stem's
 * source is started at the context time whose samples leave the speakers when the server's clock reads `at`.
 * A start already past (a late joiner, a slow load) starts at once, that much further into the song. Pause
 * stops every stem at once. Levels come from the session's shared mix (0–1 and mute per stem; a stem not in
 * it plays at full level), the master volume from the Live Session tab. Everything plays on the studio's
 * AudioContext through the session bus into the studio's master bus.
 */
export class SessionPlayer {
  /**
   * When this browser's audio of the latest start reached (or reaches) the speakers, epoch ms by this
   * browser's wall clock (performance.timeOrigin based); null before the first start. Two participants'
   * values, taken on one machine, show how far apart they started.
   */
  lastStartWallMs: number | null = null;
  private channels: Channel[] = [];
  private mix: SessionMix = {};
  private masterVolume = 1;
  private transport: Transport = { playing: false, position: 0, at: 0 };
  private clock: TransportClock | null = null;
  private started: Started | null = null;
  private audioContext: AudioContext | null = null;
  private readonly loader: StemLoader;
  private readonly contextOf: () => AudioContext;
  private readonly busOf: (context: AudioContext) => GainNode;
  private readonly now: () => number;
  private readonly timeOrigin: number;
  private readonly setTimer: (run: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;
  private driftTimer: unknown = null;
  private clockWaitTimer: unknown = null;
  private offClock: (() => void) | null = null;
  /** Bumped on every follow and load: an asynchronous step of an older one does nothing. */
  private generation = 0;
  private readonly listeners = new Set<() => void>();
  private loadingKey: string | null = null;
  private loadedKey: string | null = null;

  constructor(deps: SessionPlayerDeps = {}) {
    this.contextOf = deps.context ?? ensureAudioContext;
    this.busOf = deps.bus ?? sessionBus;
    this.loader = new StemLoader(deps.fetch);
    this.now = deps.now ?? (() => performance.now());
    this.timeOrigin = deps.timeOrigin ?? performance.timeOrigin;
    this.setTimer = deps.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  /** Whether the shared transport is playing and the song has not run out (sound may still be a moment away). */
  get playing(): boolean {
    return this.transport.playing && !(this.duration > 0 && this.position() >= this.duration);
  }

  /**
   * Makes the studio's AudioContext and lets it run: call it from a click (Join, Play, a pad), since browsers
   * keep audio silent until the page has had one. A play that arrives while the context is suspended tries to
   * resume it too, and starts once it runs.
   */
  async unlock(): Promise<void> {
    const context = this.contextOf();
    if (context.state === 'suspended') await context.resume().catch(() => undefined);
    // A play that could not start while the audio was off starts now.
    if (context.state === 'running' && this.transport.playing && !this.started && this.channels.length && this.clockWaitTimer === null) this.sync();
  }

  /** Whether stems are loaded. */
  get loaded(): boolean {
    return this.channels.length > 0;
  }

  /** The longest loaded stem, seconds (0 before loading). */
  get duration(): number {
    return this.channels.reduce((longest, channel) => Math.max(longest, channel.buffer.duration), 0);
  }

  /** Called on every start, stop and load (for the page to redraw). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Fetches and decodes the session's stems (their `url`s, from GET /api/sessions/:id/stems) on the studio's
   * context, replacing any loaded before; if the transport is playing they join in where the song is.
   * Resolves false when a later load superseded this one; rejects (PlayerError 'load-failed') when a stem
   * could not be fetched or decoded.
   */
  async load(stems: readonly Stem[]): Promise<boolean> {
    // The same stems again (a refetch, a re-render) change nothing: no second download, no restart.
    const key = JSON.stringify(stems.map((stem) => [stem.id, stem.url]));
    if (key === this.loadingKey && this.loader.pending) return this.loader.pending;
    if (key === this.loadedKey && !this.loader.pending) return true;
    this.loadingKey = key;
    return this.loader.load(stems.map((stem) => stem.url), this.contextOf, (buffers, context) => {
      this.loadedKey = key;
      this.stopSources();
      for (const channel of this.channels) channel.gain.disconnect();
      const bus = this.bus(context);
      this.channels = stems.map((stem, index) => {
        const gain = context.createGain();
        gain.connect(bus);
        return { stemId: stem.id, buffer: buffers[index]!, gain, source: null };
      });
      this.applyMix(this.mix);
      this.sync();
    });
  }

  /** The session's shared mix, applied at once: each stem at its volume (0–1), silent when muted. */
  applyMix(mix: SessionMix): void {
    this.mix = { ...mix };
    for (const channel of this.channels) {
      const stem = this.mix[channel.stemId];
      const level = stem ? (stem.muted ? 0 : Math.min(1, Math.max(0, stem.volume))) : 1;
      channel.gain.gain.setTargetAtTime(level, channel.gain.context.currentTime, GAIN_SMOOTHING_S);
    }
  }

  /** The Live Session tab's master volume, 0–1 (the stems and the collaboration pads). */
  setMasterVolume(volume: number): void {
    this.masterVolume = Math.min(1, Math.max(0, Number.isFinite(volume) ? volume : 1));
    if (this.audioContext) {
      const bus = this.bus(this.audioContext);
      bus.gain.setTargetAtTime(this.masterVolume, this.audioContext.currentTime, GAIN_SMOOTHING_S);
    }
  }

  /**
   * Follows the session's shared transport (from session_joined and every audio_sync). Playing: the song is
   * at `position + (serverNow − at) / 1000` seconds, and every stem is scheduled to start on the audio
   * clock at the moment the server's clock reads `at` (at once, further in, when that has passed). Paused:
   * everything stops at once and the song stands at `position`. Until the clock has its first sample a play
   * waits for it (briefly); later clock updates and the audio clock's own drift are corrected in place.
   */
  follow(transport: Transport, clock: SessionClock | TransportClock): void {
    // The same transport again (a re-render, a repeated audio_sync) leaves what is playing alone.
    const same = this.clock === clock && transport.playing === this.transport.playing && transport.position === this.transport.position && transport.at === this.transport.at;
    if (same) return;
    this.transport = { ...transport };
    if (this.clock !== clock) {
      this.offClock?.();
      this.clock = clock;
      this.offClock = clock.onChange(() => this.checkDrift());
    }
    this.sync();
  }

  /** Where the song is now, seconds: from the shared transport and the session clock. */
  position(): number {
    const { playing, position, at } = this.transport;
    if (!playing || !this.clock) return this.clampToSong(position);
    const elapsed = (this.clock.serverTimeAt(this.now()) - at) / 1000;
    return this.clampToSong(position + Math.max(0, elapsed));
  }

  /**
   * Stops and lets go of everything (sources, stems, timers, the clock). The player stays usable: a later
   * load and follow start afresh (React's development mode unmounts and mounts again once).
   */
  dispose(): void {
    this.generation++;
    this.loader.cancel();
    this.stopSources();
    this.stopTimers();
    this.offClock?.();
    this.offClock = null;
    this.clock = null;
    this.transport = { playing: false, position: 0, at: 0 };
    for (const channel of this.channels) channel.gain.disconnect();
    this.channels = [];
    this.loadingKey = this.loadedKey = null;
    this.notify();
  }

  /** Brings the sources in line with the transport: stop, or (re)start where the song should be heard. */
  private sync(): void {
    const generation = ++this.generation;
    this.stopTimers();
    if (!this.transport.playing || !this.clock) {
      this.stopSources();
      this.notify();
      return;
    }
    if (!this.channels.length) return this.notify();
    if (!this.clock.synced) {
      // A start from an unsynced clock would be off by the whole offset; the first pong is a moment away.
      this.clockWaitTimer = this.setTimer(() => {
        this.clockWaitTimer = null;
        if (generation === this.generation) this.schedule(generation);
      }, CLOCK_WAIT_MS);
      return;
    }
    this.schedule(generation);
  }

  private schedule(generation: number): void {
    const context = this.channels[0]!.gain.context as AudioContext;
    if (context.state !== 'running') {
      void context.resume().then(
        () => generation === this.generation && context.state === 'running' && this.schedule(generation),
        () => undefined,
      );
      return;
    }
    this.startAt(this.plannedStart(context));
    this.driftTimer = this.setTimer(() => this.driftTick(generation), DRIFT_CHECK_MS);
  }

  /**
   * The context time at which the song is heard at `transport.at`, or (when that is no longer schedulable)
   * the earliest schedulable time and the song's position when it is heard then.
   */
  private plannedStart(context: AudioContext): Started {
    const { position, at } = this.transport;
    const clock = this.clock!;
    const stamp = this.outputStamp(context);
    const contextTimeOf = (perfTime: number) => stamp.contextTime + (perfTime - stamp.performanceTime) / 1000;
    const earliest = context.currentTime + SCHEDULE_AHEAD_S;
    const when = contextTimeOf(clock.perfTimeOf(at));
    if (when >= earliest) return { when, offset: position };
    const heardPerf = stamp.performanceTime + (earliest - stamp.contextTime) * 1000;
    return { when: earliest, offset: position + (clock.serverTimeAt(heardPerf) - at) / 1000 };
  }

  /**
   * Context time ↔ performance time: which context time's samples reach the speakers at which performance.now().
   * getOutputTimestamp says so (output latency included) once the context has rendered; before that, the
   * current time and the reported output latency stand in.
   */
  private outputStamp(context: AudioContext): { contextTime: number; performanceTime: number } {
    const stamp = typeof context.getOutputTimestamp === 'function' ? context.getOutputTimestamp() : null;
    if (stamp && stamp.contextTime && stamp.performanceTime) return { contextTime: stamp.contextTime, performanceTime: stamp.performanceTime };
    const latency = (context.outputLatency || 0) || (context.baseLatency || 0);
    return { contextTime: context.currentTime, performanceTime: this.now() + latency * 1000 };
  }

  private startAt(start: Started): void {
    this.stopSources();
    const context = this.channels[0]!.gain.context as AudioContext;
    this.bus(context);
    if (start.offset >= this.duration) {
      this.started = null;
      this.notify();
      return;
    }
    for (const channel of this.channels) {
      const source = context.createBufferSource();
      source.buffer = channel.buffer;
      source.connect(channel.gain);
      if (start.offset < channel.buffer.duration) source.start(start.when, start.offset);
      channel.source = source;
    }
    this.started = start;
    const stamp = this.outputStamp(context);
    this.lastStartWallMs = this.timeOrigin + stamp.performanceTime + (start.when - stamp.contextTime) * 1000;
    this.notify();
  }

  private driftTick(generation: number): void {
    if (generation !== this.generation) return;
    this.checkDrift();
    if (generation === this.generation) this.driftTimer = this.setTimer(() => this.driftTick(generation), DRIFT_CHECK_MS);
  }

  /** Restarts in place when the sources have moved too far from where the session clock says the song is. */
  private checkDrift(): void {
    if (!this.transport.playing || !this.clock?.synced || !this.channels.length) return;
    if (!this.started) {
      // Waiting for the clock's first sample: it came.
      if (this.clockWaitTimer !== null) this.sync();
      return;
    }
    const context = this.channels[0]!.gain.context as AudioContext;
    if (context.state !== 'running') return;
    const planned = this.plannedStart(context);
    // Where the running sources are at the planned time, against where the song should be then.
    const playingAt = this.started.offset + (planned.when - this.started.when);
    if (Math.abs(playingAt - planned.offset) > RESYNC_THRESHOLD_S) this.startAt(planned);
  }

  private stopSources(): void {
    stopChannelSources(this.channels);
    this.started = null;
  }

  private stopTimers(): void {
    if (this.driftTimer !== null) this.clearTimer(this.driftTimer);
    if (this.clockWaitTimer !== null) this.clearTimer(this.clockWaitTimer);
    this.driftTimer = this.clockWaitTimer = null;
  }

  private bus(context: AudioContext): GainNode {
    const bus = this.busOf(context);
    if (this.audioContext !== context) {
      this.audioContext = context;
      bus.gain.setTargetAtTime(this.masterVolume, context.currentTime, GAIN_SMOOTHING_S);
    }
    return bus;
  }

  private clampToSong(position: number): number {
    return this.duration > 0 ? Math.min(this.duration, position) : position;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
