import { onAudioContext } from '../../../audio/audioContext';
import { MASTER_ANALYSER_SIZE, masterAnalyser } from '../../../audio/masterEffects';
import { beatEvent, type PlaybackEvent, type PlaybackEventStream } from '../../../audio/playbackEvents';
import { studioPlayer } from '../../../audio/studioPlayer';
import { controlOutputs } from '../../../instruments/controlOutputs';
import { currentInstrumentRack, onInstrumentRack } from '../../../instruments/rackRegistry';
import { encodeFrame, VISUALS_CHANNEL } from '../output/frameCodec';
import { watchOutputWindows } from '../output/outputPresence';
import { BeatDetector } from './beatDetector';
import { BeatPulse, type BeatSource } from './beatPulse';
import { VISUAL_MODES, type VisualFrame, type VisualMode } from './visualFrame';

/** Output windows get at most one frame per this many ms (60 per second, whatever the studio's display rate). */
const BROADCAST_EVERY_MS = 15;
/** Without requestAnimationFrame (the studio's tab hidden while an output window shows) frames come this often. */
const HIDDEN_TICK_MS = 33;
const MODE_KEY = 'stemdeck.visualizer.mode';

export interface FeedStatus {
  /** The tempo shown: the playing source's, the detected one, or 120 until one is found. */
  bpm: number;
  source: BeatSource;
}

type Viewer = (frame: VisualFrame) => void;

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
 * panel's view and streams it to open output windows. It runs while a viewer watches (the panel, mounted and
 * on screen) or an output window is open, and not otherwise.
 */
export class LiveVisualFeed {
  private readonly waveform = new Uint8Array(MASTER_ANALYSER_SIZE).fill(128);
  private readonly spectrum = new Uint8Array(MASTER_ANALYSER_SIZE / 2);
  private readonly frame: VisualFrame = { waveform: this.waveform, spectrum: this.spectrum, pulse: 0, beat: false, bpm: 120, timeMs: 0 };
  private readonly pulse = new BeatPulse();
  private readonly viewers = new Set<Viewer>();
  private readonly statusListeners = new Set<() => void>();
  private status: FeedStatus = { bpm: 120, source: 'fallback' };
  private analyser: AnalyserNode | null = null;
  private detector = new BeatDetector(48_000 / MASTER_ANALYSER_SIZE);
  private context: AudioContext | null = null;
  private outputWindows = 0;
  private channel: BroadcastChannel | null = null;
  private sequence = 0;
  private lastBroadcast = -Infinity;
  private liveBeats = 0;
  private running: { frame: number | null; timer: ReturnType<typeof setTimeout> | null } | null = null;
  private attached = false;
  private currentMode: VisualMode = savedMode();

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

  /** Whether the loop is running now (for tests and the benchmark's checks). */
  get active(): boolean {
    return this.running !== null;
  }

  /** Follows the audio context, the clocked sources' beats and the output windows; once, on first use. */
  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    onAudioContext((context) => {
      this.context = context;
      this.analyser = masterAnalyser(context);
      this.detector = new BeatDetector(context.sampleRate / MASTER_ANALYSER_SIZE);
    });
    const followBeats = (events: PlaybackEventStream) =>
      events.subscribe((event: PlaybackEvent) => {
        if (event.type === 'beat') this.pulse.clocked(event.bpm);
      });
    followBeats(studioPlayer.events);
    onInstrumentRack((rack) => followBeats(rack.events));
    watchOutputWindows((count) => {
      this.outputWindows = count;
      this.updateRunning();
    });
  }

  private updateRunning(): void {
    const wanted = this.viewers.size > 0 || this.outputWindows > 0;
    if (wanted && !this.running) {
      this.running = { frame: null, timer: null };
      this.schedule();
    } else if (!wanted && this.running) {
      if (this.running.frame !== null) cancelAnimationFrame(this.running.frame);
      if (this.running.timer !== null) clearTimeout(this.running.timer);
      this.running = null;
      this.channel?.close();
      this.channel = null;
    }
  }

  private schedule(): void {
    const running = this.running;
    if (!running) return;
    if (document.visibilityState === 'visible') running.frame = requestAnimationFrame(() => this.tick());
    else running.timer = setTimeout(() => this.tick(), HIDDEN_TICK_MS);
  }

  private tick(): void {
    if (!this.running) return;
    this.running.frame = null;
    this.running.timer = null;
    const now = performance.now();
    this.read(now);
    for (const viewer of this.viewers) viewer(this.frame);
    if (this.outputWindows > 0 && now - this.lastBroadcast >= BROADCAST_EVERY_MS) {
      this.lastBroadcast = now;
      this.channel ??= typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(VISUALS_CHANNEL);
      this.channel?.postMessage(encodeFrame(this.currentMode, this.frame, this.sequence++));
    }
    this.schedule();
  }

  private read(now: number): void {
    if (this.analyser) {
      this.analyser.getByteTimeDomainData(this.waveform);
      this.analyser.getByteFrequencyData(this.spectrum);
    }
    const reading = this.detector.push(this.spectrum, now);
    const clockedPlaying = studioPlayer.playing || (currentInstrumentRack()?.owner ?? null) !== null;
    const state = this.pulse.frame(reading, clockedPlaying, now);
    if (state.emitLiveBeat) {
      controlOutputs.playback(beatEvent(this.liveBeats++, Math.round(state.bpm), this.context?.currentTime ?? now / 1000, Date.now()));
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
export const liveVisualFeed = new LiveVisualFeed();
