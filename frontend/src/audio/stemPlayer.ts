import type { StemType } from '../api/mediaTypes';
import { MixGraph } from './mixGraph';
import type { PlaybackEventStream } from './playbackEvents';
import { StemLoader } from './stemLoader';
import { PlayerError, type PlaybackStatus, type PlayerStem } from './stemPlayback';
import { StemTransport } from './stemTransport';

export { PlayerError, type PlaybackStatus, type PlayerErrorCode, type PlayerStem } from './stemPlayback';

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

/**
 * Plays a project's stems on the studio's one AudioContext. Three parts: the loader fetches and decodes
 * (stemLoader.ts), the mix graph holds source → gain → analyser → master per stem (mixGraph.ts), the
 * transport plays, pauses, seeks and emits transport, beat and level events (stemTransport.ts). All
 * sources start at one context time and offset, so the stems stay sample-aligned. Plain TypeScript, no React.
 */
export class StemPlayer {
  private readonly graph: MixGraph;
  private readonly loader: StemLoader;
  private readonly transport: StemTransport;
  /** The mix last set or loaded: stems that finish loading after it changed get it, not the one they were loaded with. */
  private mix: ReadonlyArray<Pick<PlayerStem, 'id' | 'volume' | 'muted' | 'soloed'>> = [];
  /** Counts loads (and unloads): a single stem's swap started before a newer load hands nothing over. */
  private loads = 0;
  /** The newest swap of each stem: an older one still decoding hands nothing over. */
  private readonly swaps = new Map<string, number>();

  constructor(private readonly deps: StemPlayerDeps) {
    this.graph = new MixGraph(deps.output);
    this.loader = new StemLoader(deps.fetch);
    this.transport = new StemTransport(this.graph, { now: () => deps.now?.() ?? Date.now(), onAudible: deps.onAudible });
  }

  get events(): PlaybackEventStream {
    return this.transport.events;
  }

  get duration(): number {
    return this.transport.duration;
  }

  set duration(seconds: number) {
    this.transport.duration = seconds;
  }

  get bpm(): number {
    return this.transport.bpm;
  }

  set bpm(bpm: number) {
    this.transport.bpm = bpm;
  }

  get playing(): boolean {
    return this.transport.playing;
  }

  get status(): PlaybackStatus {
    return this.transport.status;
  }

  get loaded(): boolean {
    return this.graph.loaded;
  }

  /** True while playback waits at the end of the first seconds for the whole stems. */
  get stalled(): boolean {
    return this.transport.stalled;
  }

  get position(): number {
    return this.transport.position;
  }

  /** Called on every tick while playing and on every transport change. */
  onPosition(listener: (position: number, status: PlaybackStatus) => void): () => void {
    return this.transport.onPosition(listener);
  }

  /**
   * Fetches and decodes every stem, then swaps them in (while playing, at the current position). A later
   * load supersedes an earlier one still in flight (e.g. the whole stems arriving after the first seconds):
   * the superseded one resolves false, whatever happened to it. `partialSeconds` marks progressive stems,
   * at whose end playback waits for the whole ones instead of running on in silence.
   */
  load(stems: PlayerStem[], partialSeconds: number | null = null): Promise<boolean> {
    this.mix = stems;
    this.loads++;
    return this.loader.load(
      stems.map((stem) => stem.url),
      () => this.context(),
      (buffers, context) => {
        this.transport.replaceStems(stems, buffers, context, partialSeconds);
        // A change made while these were fetched and decoded (a mute during the swap) is not undone by them.
        this.graph.setMix(this.mix);
      },
    );
  }

  /**
   * Swaps one loaded stem's audio for the recording at `stem.url` (its enhanced or original version), the
   * others playing on and the playhead where it is. A full load in flight is waited for (it would put its
   * own recordings in afterwards); a newer swap of the same stem, or a newer load, supersedes this one, which
   * then resolves false, as it does when the stem is not loaded.
   */
  async replaceStem(stem: PlayerStem): Promise<boolean> {
    const ticket = (this.swaps.get(stem.id) ?? 0) + 1;
    this.swaps.set(stem.id, ticket);
    while (this.loader.pending) await this.loader.pending.catch(() => false);
    const loads = this.loads;
    if (!this.graph.stems.some((loaded) => loaded.id === stem.id)) return false;
    const buffer = await this.loader.decode(stem.url, this.context());
    if (this.swaps.get(stem.id) !== ticket || this.loads !== loads) return false;
    return this.transport.replaceStem(stem, buffer);
  }

  /** Where each loaded stem's audio came from, by stem id: the url of the recording it plays. */
  sources(): Record<string, string> {
    return Object.fromEntries(this.graph.stems.map((stem) => [stem.id, stem.url]));
  }

  /** Drops the stems (a new project is being loaded). */
  unload(): void {
    this.loads++;
    this.loader.cancel();
    this.transport.clear();
  }

  /** Volume, mute and solo, applied at once. */
  setMix(stems: Array<Pick<PlayerStem, 'id' | 'volume' | 'muted' | 'soloed'>>): void {
    this.mix = stems;
    this.graph.setMix(stems);
  }

  /** Plays from the current position; stems still being fetched are waited for (Play pressed as they land). */
  async play(): Promise<void> {
    if (this.playing) return;
    // A newer load may supersede the one pending now: wait until one of them has swapped stems in.
    while (!this.loaded && this.loader.pending) await this.loader.pending.catch(() => false);
    if (this.playing) return;
    if (!this.loaded) throw new PlayerError('no-audio', 'Please load an audio file first');
    await this.transport.play(this.context());
  }

  pause(): void {
    this.transport.pause();
  }

  stop(): void {
    this.transport.stop();
  }

  seek(seconds: number): void {
    this.transport.seek(seconds);
  }

  /**
   * Performance pads: plays `repeats` back-to-back copies of a `length`-second slice of one stem, from
   * `offset` (the playhead by default), starting now, on top of the mix and past the stem's own gain (a
   * muted stem can still be triggered). Returns false when that stem is not loaded.
   */
  playSlice(type: StemType, length: number, repeats = 1, offset = this.position): boolean {
    return this.graph.playSlice(type, length, repeats, offset);
  }

  /** RMS of each stem's analyser by stem id, after its gain (a muted stem reads 0); all 0 unless playing. */
  levels(): Record<string, number> {
    const levels = this.graph.levels();
    if (!this.playing) for (const id of Object.keys(levels)) levels[id] = 0;
    return levels;
  }

  /** Peak envelope of the mix (the stems summed), `bins` values in 0…1, for the timeline's waveform. */
  waveform(bins: number): Float32Array {
    return this.graph.waveform(bins, this.duration);
  }

  private context(): AudioContext {
    try {
      return this.deps.context();
    } catch {
      throw new PlayerError('context-failed', 'Failed to initialize audio context');
    }
  }
}
