import { onAudioContext } from '../../../audio/audioContext';
import { MASTER_ANALYSER_SIZE, masterAnalyser } from '../../../audio/masterEffects';
import { beatEvent, type PlaybackEvent, type PlaybackEventStream } from '../../../audio/playbackEvents';
import { studioPlayer } from '../../../audio/studioPlayer';
import { controlOutputs } from '../../../instruments/controlOutputs';
import { currentInstrumentRack, onInstrumentRack } from '../../../instruments/rackRegistry';
import { encodeFrame, VISUALS_CHANNEL } from '../output/frameCodec';
import { remoteOutputs, REMOTE_FRAME_EVERY_MS } from '../output/outputLink';
import { watchOutputWindows } from '../output/outputPresence';
import { BeatDetector } from './beatDetector';
import { BeatPulse, type BeatSource } from './beatPulse';
import { VISUAL_MODES, type VisualFrame, type VisualMode } from './visualFrame';

/** Output windows get at most one frame per this many ms (60 per second, whatever the studio's display rate). */
const BROADCAST_EVERY_MS = 15;
/** Without requestAnimationFrame (the studio's tab hidden while an output window shows) frames come this often. */
const HIDDEN_TICK_MS = 33;
/** A display frame that has not come in this long is not coming (a covered window): the tick runs anyway. */
const FRAME_WATCHDOG_MS = 100;
const MODE_KEY = 'stemdeck.visualizer.mode';

export interface FeedStatus {
  /** The tempo shown: the playing source's, the detected one, or 120 until one is found. */
  bpm: number;
  source: BeatSource;
}

type Viewer = (frame: VisualFrame) => void;

/** The analyser's two reads (a fake one in the unit tests). */
export type FrameAnalyser = Pick<AnalyserNode, 'getByteTimeDomainData' | 'getByteFrequencyData'>;

/** What the feed listens to and talks to: the studio's audio, clocked sources and outputs, or fakes. */
export interface FeedDeps {
  /** Calls back when the audio context exists (at once if it does): its master analyser, sample rate and clock. */
  onAnalyser(listener: (analyser: FrameAnalyser, sampleRate: number, currentTime: () => number) => void): void;
  /** Calls back on every beat event of a clocked source (stem playback, the sequencer, a demo song). */
  onClockedBeat(listener: (bpm: number) => void): void;
  /** Whether a clocked source plays now. */
  clockedPlaying(): boolean;
  /** Sends a live-detected beat on the playback event stream (OSC /stemdeck/beat, MIDI). */
  sendBeat(event: PlaybackEvent): void;
  /** Calls back with the number of open output windows now and on every change. */
  watchOutputs(listener: (count: number) => void): void;
  /** Streams one encoded frame to the output windows. */
  broadcast(frame: ArrayBuffer): void;
  /** Calls back with the number of output pages in other browsers (output links, e.g. OBS) now and on every change. */
  watchRemoteOutputs?(listener: (count: number) => void): void;
  /** Sends one encoded frame to those pages (through the gateway). */
  sendRemote?(frame: ArrayBuffer): void;
  /** Stops streaming (nothing is running). */
  stopBroadcast(): void;
  /** The next tick: on the next display frame while the page is visible, on a timer otherwise. */
  requestTick(tick: () => void): () => void;
  now(): number;
  wallClock(): number;
}

/** The studio's real ones. */
export function studioFeedDeps(): FeedDeps {
  let channel: BroadcastChannel | null = null;
  return {
    onAnalyser: (listener) => onAudioContext((context) => listener(masterAnalyser(context), context.sampleRate, () => context.currentTime)),
    onClockedBeat: (listener) => {
      const follow = (events: PlaybackEventStream) =>
        events.subscribe((event: PlaybackEvent) => {
          if (event.type === 'beat') listener(event.bpm);
        });
      follow(studioPlayer.events);
      onInstrumentRack((rack) => follow(rack.events));
    },
    clockedPlaying: () => studioPlayer.playing || (currentInstrumentRack()?.owner ?? null) !== null,
    sendBeat: (event) => controlOutputs.playback(event),
    watchOutputs: (listener) => void watchOutputWindows(listener),
    watchRemoteOutputs: (listener) => void remoteOutputs().watch(listener),
    sendRemote: (frame) => remoteOutputs().send(frame),
    broadcast: (frame) => {
      channel ??= typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(VISUALS_CHANNEL);
      channel?.postMessage(frame);
    },
    stopBroadcast: () => {
      channel?.close();
      channel = null;
    },
    requestTick: nextTick,
    now: () => performance.now(),
    wallClock: () => Date.now(),
  };
}

/**
 * Calls `tick` on the next display frame while the page is visible, on a timer while it is hidden. A display frame
 * asked for just before the page was hidden would never come (the browser holds them back for hidden pages), and
 * the output windows would freeze on the last frame: the page's hiding turns the pending frame into a timer, and a
 * watchdog catches a display frame held back without a visibility change (a covered window).
 */
export function nextTick(tick: () => void): () => void {
  if (document.visibilityState !== 'visible') {
    const timer = setTimeout(tick, HIDDEN_TICK_MS);
    return () => clearTimeout(timer);
  }
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (fired) return;
    fired = true;
    cancel();
    tick();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') return;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    timer = setTimeout(run, HIDDEN_TICK_MS);
  };
  const frame = requestAnimationFrame(run);
  timer = setTimeout(run, FRAME_WATCHDOG_MS);
  document.addEventListener('visibilitychange', onVisibility);
  function cancel() {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  }
  return cancel;
}

function savedMode(): VisualMode {
  try {
    const mode = localStorage.getItem(MODE_KEY);
    return VISUAL_MODES.includes(mode as VisualMode) ? (mode as VisualMode) : 'spectrum';
  } catch {
    return 'spectrum';
  }
}

/**
 * The studio's live visual frames: each tick reads the master bus's analyser (after the context exists; silence
 * before), finds beats (BeatPulse: the playing stems' or sequencer's own beat events win, else the live
 * detector's onsets, which are then sent as playback beat events → OSC /stemdeck/beat), hands the frame to the
 * panel's view and streams it to open output windows (this browser's, and output links' pages elsewhere at 30
 * per second). It runs while a viewer watches (the panel, mounted and on screen) or an output is open, and not
 * otherwise.
 */
export class LiveVisualFeed {
  private readonly waveform = new Uint8Array(MASTER_ANALYSER_SIZE).fill(128);
  private readonly spectrum = new Uint8Array(MASTER_ANALYSER_SIZE / 2);
  private readonly frame: VisualFrame = { waveform: this.waveform, spectrum: this.spectrum, pulse: 0, beat: false, bpm: 120, timeMs: 0 };
  private readonly pulse = new BeatPulse();
  private readonly viewers = new Set<Viewer>();
  private readonly statusListeners = new Set<() => void>();
  private status: FeedStatus = { bpm: 120, source: 'fallback' };
  private analyser: FrameAnalyser | null = null;
  private audioTime: (() => number) | null = null;
  private detector = new BeatDetector(48_000 / MASTER_ANALYSER_SIZE);
  private outputWindows = 0;
  private remoteOutputs = 0;
  private lastRemoteSend = -Infinity;
  private sequence = 0;
  private lastBroadcast = -Infinity;
  private liveBeats = 0;
  /** Cancels the pending tick while running; null when stopped. */
  private running: { cancel: (() => void) | null } | null = null;
  private attached = false;
  private currentMode: VisualMode = savedMode();

  constructor(private readonly deps: FeedDeps) {}

  get mode(): VisualMode {
    return this.currentMode;
  }

  set mode(mode: VisualMode) {
    this.currentMode = mode;
    try {
      localStorage.setItem(MODE_KEY, mode);
    } catch {
      // Private windows may refuse storage: the mode is then not remembered.
    }
  }

  /** Frames to `viewer` until the returned function is called. */
  watch(viewer: Viewer): () => void {
    this.attach();
    this.viewers.add(viewer);
    this.updateRunning();
    return () => {
      this.viewers.delete(viewer);
      this.updateRunning();
    };
  }

  readonly subscribeStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  readonly getStatus = (): FeedStatus => this.status;

  /** Whether the loop is running now (read by the unit tests). */
  get active(): boolean {
    return this.running !== null;
  }

  /** Follows the audio context, the clocked sources' beats and the output windows; once, on first use. */
  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    this.deps.onAnalyser((analyser, sampleRate, currentTime) => {
      this.analyser = analyser;
      this.audioTime = currentTime;
      this.detector = new BeatDetector(sampleRate / MASTER_ANALYSER_SIZE);
    });
    this.deps.onClockedBeat((bpm) => this.pulse.clocked(bpm));
    this.deps.watchOutputs((count) => {
      this.outputWindows = count;
      this.updateRunning();
    });
    this.deps.watchRemoteOutputs?.((count) => {
      this.remoteOutputs = count;
      this.updateRunning();
    });
  }

  private updateRunning(): void {
    const wanted = this.viewers.size > 0 || this.outputWindows > 0 || this.remoteOutputs > 0;
    if (wanted && !this.running) {
      this.running = { cancel: null };
      this.schedule();
    } else if (!wanted && this.running) {
      this.running.cancel?.();
      this.running = null;
      this.deps.stopBroadcast();
    }
  }

  private schedule(): void {
    if (this.running) this.running.cancel = this.deps.requestTick(() => this.tick());
  }

  private tick(): void {
    if (!this.running) return;
    this.running.cancel = null;
    const now = this.deps.now();
    this.read(now);
    for (const viewer of this.viewers) viewer(this.frame);
    if (this.outputWindows > 0 && now - this.lastBroadcast >= BROADCAST_EVERY_MS) {
      this.lastBroadcast = now;
      this.deps.broadcast(encodeFrame(this.currentMode, this.frame, this.sequence++));
    }
    if (this.remoteOutputs > 0 && now - this.lastRemoteSend >= REMOTE_FRAME_EVERY_MS - 1) {
      this.lastRemoteSend = now;
      this.deps.sendRemote?.(encodeFrame(this.currentMode, this.frame, this.sequence++));
    }
    this.schedule();
  }

  private read(now: number): void {
    if (this.analyser) {
      this.analyser.getByteTimeDomainData(this.waveform);
      this.analyser.getByteFrequencyData(this.spectrum);
    }
    const reading = this.detector.push(this.spectrum, now);
    const state = this.pulse.frame(reading, this.deps.clockedPlaying(), now);
    if (state.emitLiveBeat) {
      this.deps.sendBeat(beatEvent(this.liveBeats++, Math.round(state.bpm), this.audioTime?.() ?? now / 1000, this.deps.wallClock()));
    }
    Object.assign(this.frame, { pulse: state.pulse, beat: state.beat, bpm: state.bpm, timeMs: now });
    const bpm = Math.round(state.bpm);
    if (bpm !== this.status.bpm || state.source !== this.status.source) {
      this.status = { bpm, source: state.source };
      for (const listener of this.statusListeners) listener();
    }
  }
}

/** The studio's one feed (the panel and output windows of this tab share it). */
export const liveVisualFeed = new LiveVisualFeed(studioFeedDeps());
