import { PlayerError } from './stemPlayback';

/**
 * Fetches and decodes stems to AudioBuffers. A later load supersedes an earlier one still in flight (e.g.
 * the whole stems arriving after the first seconds), and so does `cancel`: only the newest load hands its
 * buffers over, and a superseded one resolves false, whatever happened to it.
 */
export class StemLoader {
  private generation = 0;
  private inFlight: Promise<boolean> | null = null;

  constructor(private readonly fetchStem?: typeof fetch) {}

  /** The newest load while it is in flight; null once it has settled or was cancelled. */
  get pending(): Promise<boolean> | null {
    return this.inFlight;
  }

  /**
   * Fetches every url and decodes it on the context `contextOf` gives; if this is still the newest load,
   * `swapIn` receives the buffers (in url order) at once and the load resolves true. A failure of the newest
   * load rejects with `load-failed`.
   */
  load<C extends BaseAudioContext>(urls: readonly string[], contextOf: () => C, swapIn: (buffers: AudioBuffer[], context: C) => void): Promise<boolean> {
    const loading = this.fetchAndSwap(urls, contextOf, swapIn);
    this.inFlight = loading;
    const settle = () => void (this.inFlight === loading && (this.inFlight = null));
    loading.then(settle, settle);
    return loading;
  }

  /** Whatever is in flight will hand nothing over. */
  cancel(): void {
    this.generation++;
    this.inFlight = null;
  }

  private async fetchAndSwap<C extends BaseAudioContext>(urls: readonly string[], contextOf: () => C, swapIn: (buffers: AudioBuffer[], context: C) => void): Promise<boolean> {
    const generation = ++this.generation;
    const context = contextOf();
    let buffers: AudioBuffer[];
    try {
      buffers = await Promise.all(urls.map((url) => this.fetchAndDecode(url, context)));
    } catch (error) {
      if (generation !== this.generation) return false;
      throw new PlayerError('load-failed', (error as Error).message);
    }
    if (generation !== this.generation) return false;
    swapIn(buffers, context);
    return true;
  }

  /** One stem's audio, fetched and decoded on `context` (a single stem swapped for another version). */
  async decode(url: string, context: BaseAudioContext): Promise<AudioBuffer> {
    try {
      return await this.fetchAndDecode(url, context);
    } catch (error) {
      throw new PlayerError('load-failed', (error as Error).message);
    }
  }

  private async fetchAndDecode(url: string, context: BaseAudioContext): Promise<AudioBuffer> {
    const doFetch = this.fetchStem ?? fetch.bind(globalThis);
    const response = await doFetch(url, { credentials: 'include', cache: 'no-cache' });
    if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
    return context.decodeAudioData(await response.arrayBuffer());
  }
}
