import type { PlaybackEvent } from '../../../audio/playbackEvents';
import { decodeFrame } from '../output/frameCodec';
import { LiveVisualFeed, type FeedDeps, type FrameAnalyser } from './liveVisualFeed';

const FRAME_MS = 1000 / 60;
const BEAT_MS = 500; // 120 BPM

/** A studio stand-in: an analyser playing kicks every 500 ms while `sound` is on, ticks run by hand. */
function fakeStudio() {
  const state = {
    now: 0,
    sound: true,
    clocked: false,
    outputs: null as ((count: number) => void) | null,
    clockedBeat: null as ((bpm: number) => void) | null,
    tick: null as (() => void) | null,
    sent: [] as PlaybackEvent[],
    broadcasts: [] as ArrayBuffer[],
    broadcastStopped: 0,
  };
  const analyser: FrameAnalyser = {
    getByteTimeDomainData: (array) => void (array as Uint8Array).fill(state.sound ? 200 : 128),
    getByteFrequencyData: (array) => {
      const spectrum = array as Uint8Array;
      const sinceKick = state.now % BEAT_MS;
      spectrum.fill(0);
      if (state.sound) spectrum.fill(sinceKick < 60 ? 230 : 90, 1, 8);
    },
  };
  const deps: FeedDeps = {
    onAnalyser: (listener) => listener(analyser, 48_000, () => state.now / 1000),
    onClockedBeat: (listener) => void (state.clockedBeat = listener),
    clockedPlaying: () => state.clocked,
    sendBeat: (event) => void state.sent.push(event),
    watchOutputs: (listener) => {
      state.outputs = listener;
      listener(0);
    },
    broadcast: (frame) => void state.broadcasts.push(frame),
    stopBroadcast: () => void state.broadcastStopped++,
    requestTick: (tick) => {
      state.tick = tick;
      return () => (state.tick = null);
    },
    now: () => state.now,
    wallClock: () => 1_700_000_000_000 + state.now,
  };
  /** Runs `seconds` of display frames (only while the feed has a tick pending). */
  const run = (seconds: number) => {
    for (const end = state.now + seconds * 1000; state.now < end; ) {
      state.now += FRAME_MS;
      const tick = state.tick;
      state.tick = null;
      tick?.();
    }
  };
  return { state, deps, run };
}

describe('LiveVisualFeed', () => {
  it('runs only while a viewer watches, drawing every frame; still frames when nothing plays', () => {
    const studio = fakeStudio();
    const feed = new LiveVisualFeed(studio.deps);
    expect(feed.active).toBe(false);
    const frames: number[] = [];
    const stop = feed.watch((frame) => frames.push(frame.spectrum[2]!));
    expect(feed.active).toBe(true);
    studio.run(1);
    expect(frames.length).toBeGreaterThanOrEqual(59);
    stop();
    expect(feed.active).toBe(false);
    const count = frames.length;
    studio.run(1);
    expect(frames.length).toBe(count);
  });

  it('announces live-detected beats only while no clocked source plays: never twice', () => {
    const studio = fakeStudio();
    const feed = new LiveVisualFeed(studio.deps);
    const stop = feed.watch(() => undefined);
    studio.run(6);
    // About 12 kicks in 6 s, each sent once as /stemdeck/beat with the tempo found (120 after enough onsets).
    const live = studio.state.sent;
    expect(live.length).toBeGreaterThanOrEqual(11);
    expect(live.length).toBeLessThanOrEqual(13);
    expect(live.every((event) => event.type === 'beat' && event.osc.address === '/stemdeck/beat')).toBe(true);
    expect(live.map((event) => (event.type === 'beat' ? event.beat : -1))).toEqual(live.map((_, i) => i));
    expect(live.at(-1)!.osc.args[1]).toBe(120);
    expect(feed.getStatus()).toEqual({ bpm: 120, source: 'live' });

    // Stems start playing: their own beats (sent by the player itself) drive the pulses; nothing more goes out here.
    studio.state.clocked = true;
    const before = live.length;
    let pulses = 0;
    const stopCounting = feed.watch((frame) => (pulses += frame.beat ? 1 : 0));
    for (let beat = 0; beat < 8; beat++) {
      studio.state.clockedBeat!(126);
      studio.run(0.5);
    }
    expect(live.length).toBe(before);
    expect(pulses).toBe(8);
    expect(feed.getStatus()).toEqual({ bpm: 126, source: 'grid' });

    // They stop: live detection speaks again.
    studio.state.clocked = false;
    studio.run(2);
    expect(live.length).toBeGreaterThan(before);
    stopCounting();
    stop();
  });

  it('streams frames to output windows while one is open, even with no viewer, and stops with the last one', () => {
    const studio = fakeStudio();
    const feed = new LiveVisualFeed(studio.deps);
    feed.mode = 'circular';
    feed.watch(() => undefined)();
    expect(studio.state.broadcasts).toHaveLength(0);
    const stopsBefore = studio.state.broadcastStopped;
    studio.state.outputs!(1);
    expect(feed.active).toBe(true);
    studio.run(1);
    const sent = studio.state.broadcasts;
    expect(sent.length).toBeGreaterThanOrEqual(59);
    const decoded = sent.map((buffer) => decodeFrame(buffer)!);
    expect(decoded.every((frame) => frame.mode === 'circular')).toBe(true);
    expect(decoded.map((frame) => frame.sequence)).toEqual(decoded.map((_, i) => i));
    expect(decoded.some((frame) => frame.frame.beat)).toBe(true);
    studio.state.outputs!(0);
    expect(feed.active).toBe(false);
    expect(studio.state.broadcastStopped).toBe(stopsBefore + 1);
  });

  it('with silence, frames stay the same and nothing is announced', () => {
    const studio = fakeStudio();
    studio.state.sound = false;
    const feed = new LiveVisualFeed(studio.deps);
    const seen: string[] = [];
    feed.watch((frame) => seen.push(`${frame.waveform[0]}-${frame.spectrum[2]}-${frame.pulse}`));
    studio.run(2);
    expect(new Set(seen)).toEqual(new Set(['128-0-0']));
    expect(studio.state.sent).toHaveLength(0);
  });

  it('streams to output links (another browser, OBS) at 30 frames a second, only while the gateway counts some', () => {
    const studio = fakeStudio();
    let remote: ((count: number) => void) | null = null;
    const sentRemote: ArrayBuffer[] = [];
    const feed = new LiveVisualFeed({ ...studio.deps, watchRemoteOutputs: (listener) => void (remote = listener), sendRemote: (frame) => void sentRemote.push(frame) });
    const stopViewer = feed.watch(() => undefined);
    stopViewer();
    studio.run(1);
    expect(feed.active).toBe(false);
    remote!(1);
    expect(feed.active).toBe(true);
    studio.run(2);
    expect(sentRemote.length).toBeGreaterThanOrEqual(58);
    expect(sentRemote.length).toBeLessThanOrEqual(61);
    expect(decodeFrame(sentRemote[0]!)).not.toBeNull();
    expect(studio.state.broadcasts).toHaveLength(0); // no output window of this browser: nothing on its channel
    remote!(0);
    expect(feed.active).toBe(false);
    const count = sentRemote.length;
    studio.run(1);
    expect(sentRemote.length).toBe(count);
  });
});
