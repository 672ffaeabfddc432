import type { Stem, Transport } from '@stemdeck/proto';
import { CLOCK_WAIT_MS, DRIFT_CHECK_MS, SCHEDULE_AHEAD_S, SessionPlayer, type TransportClock } from './sessionPlayer';

const TIME_ORIGIN = 1_760_000_000_000;
/** From the context's render position to the speakers, as the output timestamps show it… */
const OUTPUT_LATENCY_MS = 35;
/** …and as context.outputLatency reports it (less exact: only used before the first timestamp). */
const REPORTED_LATENCY_MS = 20;
/** The output timestamp describes the render quantum before the current one. */
const STAMP_LAG_S = 0.01;

interface FakeSource {
  buffer: { duration: number } | null;
  started: { when: number; offset: number } | null;
  stopped: boolean;
}

/**
 * The browser as the player sees it: a performance clock and an audio clock moved together by hand (the
 * audio clock started `contextStartPerf` ms after the page), an output timestamp that says when a context time
 * reaches the speakers, nodes that record what they were told.
 */
class FakeBrowser {
  perfNow = 50_000;
  readonly contextStartPerf = 20_000;
  stampAvailable = true;
  readonly sources: FakeSource[] = [];
  readonly gains: Array<{ gain: { value: number } }> = [];
  readonly timers: Array<{ at: number; run: () => void; id: number }> = [];
  private timerIds = 0;
  readonly context = this.makeContext();

  /** The audio clock at a performance.now() reading. */
  contextTimeAt(perf: number): number {
    return (perf - this.contextStartPerf) / 1000;
  }

  /** When a context time's samples reach the speakers, performance.now() ms. */
  heardAt(contextTime: number): number {
    return this.contextStartPerf + contextTime * 1000 + OUTPUT_LATENCY_MS;
  }

  setTimer = (run: () => void, ms: number) => {
    this.timers.push({ at: this.perfNow + ms, run, id: ++this.timerIds });
    return this.timerIds;
  };

  clearTimer = (id: unknown) => {
    const index = this.timers.findIndex((timer) => timer.id === id);
    if (index >= 0) this.timers.splice(index, 1);
  };

  /** Moves both clocks on by `ms`, running the timers that fall due, in order. */
  advance(ms: number): void {
    const end = this.perfNow + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.perfNow = next.at;
      next.run();
    }
    this.perfNow = end;
  }

  /** What the latest start (one source per stem) was told. */
  latestStarts(count: number): Array<{ when: number; offset: number } | null> {
    return this.sources.slice(-count).map((source) => source.started);
  }

  private makeContext() {
    const browser = this;
    const context = {
      state: 'running' as AudioContextState,
      outputLatency: REPORTED_LATENCY_MS / 1000,
      baseLatency: 0,
      get currentTime(): number {
        return browser.contextTimeAt(browser.perfNow);
      },
      getOutputTimestamp: () => {
        if (!browser.stampAvailable) return { contextTime: 0, performanceTime: 0 };
        const contextTime = context.currentTime - STAMP_LAG_S;
        return { contextTime, performanceTime: browser.heardAt(contextTime) };
      },
      resume: async () => void (context.state = 'running'),
      decodeAudioData: async (data: ArrayBuffer) => ({ duration: new Uint16Array(data)[0]! }) as unknown as AudioBuffer,
      createGain: () => {
        const node = {
          context,
          gain: { value: 1, setTargetAtTime: (value: number) => void (node.gain.value = value) },
          connect: () => undefined,
          disconnect: () => undefined,
        };
        browser.gains.push(node);
        return node;
      },
      createBufferSource: () => {
        const source: FakeSource & Record<string, unknown> = {
          buffer: null,
          started: null,
          stopped: false,
          connect: () => undefined,
          disconnect: () => undefined,
          start: (when: number, offset: number) => void (source.started = { when, offset }),
          stop: () => void (source.stopped = true),
        };
        browser.sources.push(source);
        return source;
      },
    };
    return context;
  }
}

/** A session clock with a known offset (server ahead of this page by `offsetMs`). */
class FakeClock implements TransportClock {
  synced = true;
  private readonly listeners = new Set<() => void>();
  constructor(public offsetMs: number) {}
  serverTimeAt(perfNow: number): number {
    return TIME_ORIGIN + perfNow + this.offsetMs;
  }
  perfTimeOf(serverTime: number): number {
    return serverTime - this.offsetMs - TIME_ORIGIN;
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  change(offsetMs: number): void {
    this.offsetMs = offsetMs;
    this.synced = true;
    for (const listener of this.listeners) listener();
  }
}

const STEM_SECONDS = [180, 180, 175, 60];
const stems: Stem[] = STEM_SECONDS.map((_, i) => ({ id: `stem-${i}`, url: `/api/sessions/s1/stems/stem-${i}/audio` }) as unknown as Stem);

function setUp(offsetMs = 3_000) {
  const fake = new FakeBrowser();
  const fetched: string[] = [];
  const fetch = (async (url: string) => {
    fetched.push(url);
    const seconds = STEM_SECONDS[Number(url.split('stem-')[1]!.split('/')[0])]!;
    return { ok: true, arrayBuffer: async () => new Uint16Array([seconds]).buffer };
  }) as unknown as typeof globalThis.fetch;
  let bus: { gain: { value: number } } | null = null;
  const player = new SessionPlayer({
    context: () => fake.context as unknown as AudioContext,
    bus: (context) => (bus ??= context.createGain()) as unknown as GainNode,
    fetch,
    now: () => fake.perfNow,
    timeOrigin: TIME_ORIGIN,
    setTimer: fake.setTimer,
    clearTimer: fake.clearTimer,
  });
  const clock = new FakeClock(offsetMs);
  const serverNow = () => clock.serverTimeAt(fake.perfNow);
  return { fake, player, clock, serverNow, fetched, bus: () => bus!, stemGains: () => fake.gains.filter((gain) => gain !== bus).slice(-4).map((node) => node.gain.value) };
}

/** Context time whose samples reach the speakers at server time `serverTime` (`latencyMs` after rendering). */
const contextTimeHeardAt = (fake: FakeBrowser, clock: FakeClock, serverTime: number, latencyMs = OUTPUT_LATENCY_MS) =>
  fake.contextTimeAt(clock.perfTimeOf(serverTime) - latencyMs);

describe('SessionPlayer', () => {
  it('schedules every stem to be heard when the server clock reads `at`, from `position`', async () => {
    const { fake, player, clock, serverNow } = setUp();
    await player.load(stems);
    const at = serverNow() + 400;
    player.follow({ playing: true, position: 12, at }, clock);
    const starts = fake.latestStarts(4);
    expect(fake.sources).toHaveLength(4);
    const expectedWhen = contextTimeHeardAt(fake, clock, at);
    for (const start of starts) {
      expect(start!.when).toBeCloseTo(expectedWhen, 9);
      expect(start!.offset).toBe(12);
    }
    // 400 ms from now, less the output latency, on the audio clock.
    expect(expectedWhen - fake.context.currentTime).toBeCloseTo(0.365, 9);
    // Heard at `at` by the server's clock: this page's wall clock then reads `at` less the offset.
    expect(player.lastStartWallMs).toBeCloseTo(at - clock.offsetMs, 6);
    expect(player.playing).toBe(true);
    expect(player.position()).toBe(12);
    fake.advance(1_400);
    expect(player.position()).toBeCloseTo(13, 9);
  });

  it('starts a late joiner at once, as far into the song as the time since `at`', async () => {
    const { fake, player, clock, serverNow } = setUp(-12_345);
    await player.load(stems);
    const at = serverNow() - 5_000;
    player.follow({ playing: true, position: 10, at }, clock);
    const earliest = fake.context.currentTime + SCHEDULE_AHEAD_S;
    // Heard SCHEDULE_AHEAD_S plus the output latency from now: the song is that much further than 10 + 5 s.
    const expectedOffset = 10 + 5 + SCHEDULE_AHEAD_S + OUTPUT_LATENCY_MS / 1000;
    for (const start of fake.latestStarts(4)) {
      expect(start!.when).toBeCloseTo(earliest, 9);
      expect(start!.offset).toBeCloseTo(expectedOffset, 9);
    }
    expect(player.lastStartWallMs).toBeCloseTo(TIME_ORIGIN + fake.perfNow + SCHEDULE_AHEAD_S * 1000 + OUTPUT_LATENCY_MS, 6);
    expect(player.position()).toBeCloseTo(15, 9);
  });

  it('two players with different clock offsets, following one transport, are heard at the same moment', async () => {
    const a = setUp(2_000);
    const b = setUp(-9_000);
    await a.player.load(stems);
    await b.player.load(stems);
    const at = a.serverNow() + 400;
    a.player.follow({ playing: true, position: 0, at }, a.clock);
    b.player.follow({ playing: true, position: 0, at }, b.clock);
    // Each page's wall clock differs from the server's by its offset; by the server's clock both start at `at`.
    expect(a.player.lastStartWallMs! + a.clock.offsetMs).toBeCloseTo(at, 6);
    expect(b.player.lastStartWallMs! + b.clock.offsetMs).toBeCloseTo(at, 6);
  });

  it('pause stops every stem at once and holds the position the transport gives', async () => {
    const { fake, player, clock, serverNow } = setUp();
    await player.load(stems);
    player.follow({ playing: true, position: 0, at: serverNow() + 400 }, clock);
    fake.advance(5_000);
    expect(player.position()).toBeCloseTo(4.6, 9);
    player.follow({ playing: false, position: 4.6, at: serverNow() }, clock);
    expect(fake.sources.every((source) => source.stopped)).toBe(true);
    expect(player.playing).toBe(false);
    fake.advance(10_000);
    expect(player.position()).toBe(4.6);
    expect(fake.sources).toHaveLength(4);
    // Play again from there: new sources from 4.6.
    player.follow({ playing: true, position: 4.6, at: serverNow() + 400 }, clock);
    expect(fake.latestStarts(4).map((start) => start!.offset)).toEqual([4.6, 4.6, 4.6, 4.6]);
  });

  it('stems that finish loading during a play join in where the song is', async () => {
    const { fake, player, clock, serverNow } = setUp();
    const at = serverNow() + 400;
    player.follow({ playing: true, position: 30, at }, clock);
    expect(fake.sources).toHaveLength(0);
    expect(player.playing).toBe(true);
    fake.advance(2_400);
    expect(player.position()).toBeCloseTo(32, 9);
    await player.load(stems);
    const start = fake.latestStarts(4)[0]!;
    expect(start.offset).toBeCloseTo(32 + SCHEDULE_AHEAD_S + OUTPUT_LATENCY_MS / 1000, 9);
  });

  it('a play before the clock has a sample waits for it, and starts anyway if it does not come', async () => {
    const { fake, player, clock, serverNow } = setUp(1_000);
    clock.synced = false;
    await player.load(stems);
    player.follow({ playing: true, position: 0, at: serverNow() + 400 }, clock);
    expect(fake.sources).toHaveLength(0);
    clock.change(1_000);
    expect(fake.sources).toHaveLength(4);

    const second = setUp(1_000);
    second.clock.synced = false;
    await second.player.load(stems);
    second.player.follow({ playing: true, position: 0, at: second.serverNow() + 400 }, second.clock);
    second.fake.advance(CLOCK_WAIT_MS - 1);
    expect(second.fake.sources).toHaveLength(0);
    second.fake.advance(1);
    expect(second.fake.sources).toHaveLength(4);
  });

  it('restarts in place when a better clock sample moves the start by more than 25 ms, not for less', async () => {
    const { fake, player, clock, serverNow } = setUp(500);
    await player.load(stems);
    const at = serverNow() + 400;
    player.follow({ playing: true, position: 0, at }, clock);
    clock.change(510);
    expect(fake.sources).toHaveLength(4);
    clock.change(540);
    expect(fake.sources).toHaveLength(8);
    expect(fake.sources.slice(0, 4).every((source) => source.stopped)).toBe(true);
    expect(fake.latestStarts(4)[0]!.when).toBeCloseTo(contextTimeHeardAt(fake, clock, at), 9);
    // The periodic check finds nothing to correct.
    fake.advance(DRIFT_CHECK_MS * 3);
    expect(fake.sources).toHaveLength(8);
  });

  it('applies the shared mix (0–1, mute, full level for stems not in it) and the master volume', async () => {
    const { player, stemGains, bus } = setUp();
    player.setMasterVolume(0.3);
    player.applyMix({ 'stem-0': { volume: 0.5, muted: false }, 'stem-1': { volume: 0.8, muted: true } });
    await player.load(stems);
    expect(stemGains()).toEqual([0.5, 0, 1, 1]);
    expect(bus().gain.value).toBe(0.3);
    player.applyMix({ 'stem-3': { volume: 0.25, muted: false } });
    expect(stemGains()).toEqual([1, 1, 1, 0.25]);
    player.setMasterVolume(0.9);
    expect(bus().gain.value).toBe(0.9);
  });

  it('starts nothing past the end of the song; a stem shorter than the offset stays silent', async () => {
    const { fake, player, clock, serverNow } = setUp();
    await player.load(stems);
    player.follow({ playing: true, position: 100, at: serverNow() + 400 }, clock);
    expect(fake.latestStarts(4).map((start) => start === null)).toEqual([false, false, false, true]);
    player.follow({ playing: true, position: 0, at: serverNow() - 200_000 }, clock);
    expect(fake.sources.slice(4).every((source) => source.started === null)).toBe(true);
    expect(player.playing).toBe(false);
    expect(player.position()).toBe(180);
  });

  it('without an output timestamp yet, maps the audio clock with the reported output latency', async () => {
    const { fake, player, clock, serverNow } = setUp();
    fake.stampAvailable = false;
    await player.load(stems);
    const at = serverNow() + 400;
    player.follow({ playing: true, position: 0, at }, clock);
    expect(fake.latestStarts(4)[0]!.when).toBeCloseTo(contextTimeHeardAt(fake, clock, at, REPORTED_LATENCY_MS), 9);
    expect(player.lastStartWallMs).toBeCloseTo(at - clock.offsetMs, 6);
  });

  it('the same transport or the same stems again change nothing (no restart, no second download)', async () => {
    const { fake, player, clock, serverNow, fetched } = setUp();
    await Promise.all([player.load(stems), player.load(stems.map((stem) => ({ ...stem })))]);
    expect(fetched).toHaveLength(4);
    const transport: Transport = { playing: true, position: 3, at: serverNow() + 400 };
    player.follow(transport, clock);
    player.follow({ ...transport }, clock);
    expect(await player.load([...stems])).toBe(true);
    expect(fetched).toHaveLength(4);
    expect(fake.sources).toHaveLength(4);
    expect(fake.sources.some((source) => source.stopped)).toBe(false);
    // Another stem list is loaded, and joins in where the song is.
    await player.load(stems.slice(0, 2));
    expect(fetched).toHaveLength(6);
    expect(fake.latestStarts(2).every((start) => start !== null)).toBe(true);
  });

  it('a play that came while the audio could not run starts on the next click (unlock)', async () => {
    const { fake, player, clock, serverNow } = setUp();
    await player.load(stems);
    fake.context.state = 'suspended';
    fake.context.resume = async () => undefined; // no click yet: the browser keeps it suspended
    player.follow({ playing: true, position: 0, at: serverNow() - 1_000 }, clock);
    await Promise.resolve();
    expect(fake.sources).toHaveLength(0);
    fake.context.resume = async () => void (fake.context.state = 'running');
    await player.unlock();
    expect(fake.latestStarts(4).every((start) => start !== null && start.offset > 1)).toBe(true);
  });

  it('resumes a suspended context before it schedules, and dispose stops everything', async () => {
    const { fake, player, clock, serverNow } = setUp();
    await player.load(stems);
    fake.context.state = 'suspended';
    player.follow({ playing: true, position: 0, at: serverNow() + 400 }, clock);
    expect(fake.sources).toHaveLength(0);
    await Promise.resolve();
    await Promise.resolve();
    expect(fake.sources).toHaveLength(4);
    player.dispose();
    expect(fake.sources.every((source) => source.stopped)).toBe(true);
    fake.advance(DRIFT_CHECK_MS * 5);
    expect(fake.sources).toHaveLength(4);
    expect(player.playing).toBe(false);
    // Still usable afterwards (a remount): it loads and follows again.
    await player.load(stems);
    player.follow({ playing: true, position: 2, at: serverNow() + 400 }, clock);
    expect(fake.sources).toHaveLength(8);
    expect(fake.latestStarts(4).every((start) => start!.offset === 2)).toBe(true);
  });
});
