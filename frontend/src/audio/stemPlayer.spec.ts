import { BeatTracker, MIDI_CONTINUE, MIDI_START, MIDI_STOP, type PlaybackEvent } from './playbackEvents';
import { PlayerError, StemPlayer, type PlayerStem } from './stemPlayer';

/** A stand-in for the browser's AudioContext: a clock we move by hand, nodes that record what was asked. */
class FakeContext {
  currentTime = 10;
  state: AudioContextState = 'suspended';
  destination = {};
  starts: Array<{ when: number; offset: number }> = [];
  /** The context time each stopped source was told to stop at (0: at once). */
  stops: number[] = [];
  /** Every gain node made, in order: the master first, then one per stem on each load. */
  gains: Array<{ gain: { value: number } }> = [];
  level = 0.5;
  resume = async () => void (this.state = 'running');
  decodeAudioData = async (data: ArrayBuffer) => {
    const seconds = new Uint8Array(data)[0]!;
    return { duration: seconds, sampleRate: 100, numberOfChannels: 1, getChannelData: () => new Float32Array(seconds * 100).fill(0.5) } as unknown as AudioBuffer;
  };
  createGain = () => {
    const node = { context: this, gain: { value: 1, setTargetAtTime: (v: number) => void (node.gain.value = v) }, connect: () => undefined, disconnect: () => undefined };
    this.gains.push(node);
    return node;
  };
  createAnalyser = () => ({
    fftSize: 0,
    smoothingTimeConstant: 0,
    connect: () => undefined,
    disconnect: () => undefined,
    getFloatTimeDomainData: (out: Float32Array) => out.fill(this.level),
  });
  createBufferSource = () => ({
    buffer: null,
    connect: () => undefined,
    disconnect: () => undefined,
    start: (when: number, offset: number) => this.starts.push({ when, offset }),
    stop: (when = 0) => void this.stops.push(when),
    onended: null,
  });
}

const stems: PlayerStem[] = ['vocals', 'drums', 'bass', 'other'].map((type, i) => ({
  id: `s${i}`,
  type: type as PlayerStem['type'],
  url: `/api/stems/s${i}/audio`,
  volume: 0,
  muted: false,
  soloed: false,
}));

function setUp() {
  const context = new FakeContext();
  const fetch = (async () => ({ ok: true, arrayBuffer: async () => new Uint8Array([30]).buffer })) as unknown as typeof globalThis.fetch;
  const player = new StemPlayer({ context: () => context as unknown as AudioContext, fetch, now: () => 0 });
  player.duration = 30;
  const events: PlaybackEvent[] = [];
  player.events.subscribe((e) => events.push(e));
  return { context, player, events };
}

describe('StemPlayer', () => {
  afterEach(() => jest.useRealTimers());

  it('refuses to play with nothing loaded ("No audio loaded")', async () => {
    const { player } = setUp();
    await expect(player.play()).rejects.toEqual(new PlayerError('no-audio', 'Please load an audio file first'));
  });

  it('resumes a suspended context and starts all four stems at one time and offset', async () => {
    const { context, player, events } = setUp();
    await player.load(stems);
    await player.play();
    expect(context.state).toBe('running');
    expect(context.starts).toHaveLength(4);
    expect(new Set(context.starts.map((s) => `${s.when}/${s.offset}`)).size).toBe(1);
    expect(events[0]).toMatchObject({ type: 'transport', action: 'play', midi: { status: MIDI_START }, osc: { address: '/stemdeck/transport' } });
    player.stop();
  });

  it('keeps the position on pause, resumes from it aligned, and returns to 0 on stop', async () => {
    const { context, player, events } = setUp();
    await player.load(stems);
    await player.play();
    context.currentTime += 5.03;
    player.pause();
    expect(player.position).toBeCloseTo(5, 5);
    context.currentTime += 100;
    expect(player.position).toBeCloseTo(5, 5);
    context.starts = [];
    await player.play();
    expect(context.starts.every((s) => s.offset === player.position && s.when === context.starts[0]!.when)).toBe(true);
    player.seek(12);
    expect(context.starts.slice(4).map((s) => s.offset)).toEqual([12, 12, 12, 12]);
    player.stop();
    expect(player.position).toBe(0);
    expect(events.map((e) => e.type === 'transport' && [e.action, e.midi.status])).toEqual([
      ['play', MIDI_START],
      ['pause', MIDI_STOP],
      ['play', MIDI_CONTINUE],
      ['stop', MIDI_STOP],
    ]);
  });

  it('stops by itself at the end and emits beats and stem levels while playing', async () => {
    jest.useFakeTimers();
    const { context, player, events } = setUp();
    player.bpm = 120;
    await player.load(stems);
    await player.play();
    for (let t = 0; t < 1300 && player.playing; t++) {
      context.currentTime += 0.025;
      jest.advanceTimersByTime(25);
    }
    expect(player.playing).toBe(false);
    expect(player.position).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'transport', action: 'stop' });
    expect(events.some((e) => e.type === 'beat' && e.midi.data1 === 36 && e.midi.data2 === 127 && e.osc.address === '/stemdeck/beat')).toBe(true);
    expect(events.some((e) => e.type === 'level' && e.stem === 'vocals' && e.osc.address === '/stemdeck/stem/vocals_rms')).toBe(true);
  });

  it('mutes, solos and sets volume in dB on each stem\'s gain', async () => {
    const { context, player } = setUp();
    await player.load(stems);
    // The four stems' gains are the last four made (after the master).
    const gains = () => context.gains.slice(-4).map((node) => Number(node.gain.value.toFixed(3)));
    player.setMix([{ id: 's0', volume: -6, muted: false, soloed: false }, { id: 's1', volume: 0, muted: true, soloed: false }]);
    expect(gains()).toEqual([0.501, 0, 1, 1]);
    player.setMix([{ id: 's2', volume: 0, muted: false, soloed: true }]);
    expect(gains()).toEqual([0, 0, 1, 0]);
  });

  it('keeps a mix change made while stems load: the swapped-in stems get it, not the mix they were loaded with', async () => {
    const { context, player } = setUp();
    const loading = player.load(stems);
    player.setMix(stems.map((stem) => (stem.id === 's1' ? { ...stem, muted: true } : stem)));
    expect(await loading).toBe(true);
    expect(context.gains.slice(-4).map((node) => node.gain.value)).toEqual([1, 0, 1, 1]);
  });

  it('Play pressed while the stems are still loading waits for them, then plays', async () => {
    const { context, player } = setUp();
    const loading = player.load(stems);
    const playing = player.play();
    await Promise.all([loading, playing]);
    expect(player.playing).toBe(true);
    expect(context.starts).toHaveLength(4);
    player.stop();
  });

  it('Play while the first seconds load, superseded by the whole stems, plays the whole stems', async () => {
    const { context, player } = setUp();
    const first = player.load(stems, 5);
    const whole = player.load(stems);
    const playing = player.play();
    expect(await first).toBe(false);
    expect(await whole).toBe(true);
    await playing;
    expect(player.playing).toBe(true);
    expect(context.starts).toHaveLength(4);
    player.stop();
  });

  it('a superseded load that fails is not reported', async () => {
    const context = new FakeContext();
    let calls = 0;
    const fetch = (async () => (++calls <= 4 ? { ok: false, status: 500, statusText: 'Error' } : { ok: true, arrayBuffer: async () => new Uint8Array([30]).buffer })) as never;
    const player = new StemPlayer({ context: () => context as unknown as AudioContext, fetch });
    const first = player.load(stems, 5);
    const second = player.load(stems);
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(true);
  });

  it('waits at the end of the first seconds and goes on from there when the whole stems arrive', async () => {
    jest.useFakeTimers();
    const { context, player } = setUp();
    await player.load(stems, 5);
    await player.play();
    for (let t = 0; t < 320; t++) {
      context.currentTime += 0.025;
      jest.advanceTimersByTime(25);
    }
    // 8 s of clock went by, but only 5 s of audio existed: the playhead holds at 5 s, still "playing".
    expect(player.stalled).toBe(true);
    expect(player.status).toBe('playing');
    expect(player.position).toBeCloseTo(5, 1);
    context.starts = [];
    await player.load(stems);
    expect(player.stalled).toBe(false);
    expect(context.starts.map((s) => Number(s.offset.toFixed(1)))).toEqual([5, 5, 5, 5]);
    player.stop();
  });

  it('reports load failures as "load-failed"', async () => {
    const context = new FakeContext();
    const player = new StemPlayer({ context: () => context as unknown as AudioContext, fetch: (async () => ({ ok: false, status: 404, statusText: 'Not Found' })) as never });
    await expect(player.load(stems)).rejects.toMatchObject({ code: 'load-failed' });
  });
});

describe('BeatTracker', () => {
  it('fires each beat once, inside the first 10 % of it', () => {
    const tracker = new BeatTracker();
    // 120 BPM: a beat every 0.5 s; the window is 0.05 s.
    expect([0, 0.02, 0.04, 0.06, 0.5, 0.549, 0.56, 1.04].map((t) => tracker.check(t, 120))).toEqual([0, null, null, null, 1, null, null, 2]);
    tracker.reset();
    expect(tracker.check(1.01, 120)).toBe(2);
  });

  describe('swapping one stem for another version of it', () => {
    /** The enhanced vocals decode to 31 s, every other recording to 30 s: which one a channel holds shows. */
    function setUpVersions() {
      const context = new FakeContext();
      const fetched: string[] = [];
      const fetch = (async (url: string) => {
        fetched.push(url);
        return { ok: true, arrayBuffer: async () => new Uint8Array([url.includes('enhanced') ? 31 : 30]).buffer };
      }) as unknown as typeof globalThis.fetch;
      const player = new StemPlayer({ context: () => context as unknown as AudioContext, fetch, now: () => 0 });
      player.duration = 30;
      return { context, player, fetched };
    }
    const enhancedVocals = { ...stems[0]!, url: '/api/stems/s0/audio?version=enhanced' };

    it('while playing: only that stem restarts, gaplessly, where the shared clock says it is; the playhead runs on', async () => {
      const { context, player, fetched } = setUpVersions();
      await player.load(stems);
      await player.play();
      const [first] = context.starts;
      context.currentTime += 2;
      const before = player.position;
      context.starts = [];
      fetched.length = 0;

      expect(await player.replaceStem(enhancedVocals)).toBe(true);
      expect(fetched).toEqual([enhancedVocals.url]);
      // One new source (the others untouched), started when the old one stops, at the matching offset.
      expect(context.starts).toHaveLength(1);
      const { when, offset } = context.starts[0]!;
      expect(context.stops).toEqual([when]);
      expect(offset).toBeCloseTo(first!.offset + (when - first!.when), 9);
      expect(player.playing).toBe(true);
      expect(player.position).toBeCloseTo(before, 9);
      expect(player.sources()).toEqual({ s0: enhancedVocals.url, s1: stems[1]!.url, s2: stems[2]!.url, s3: stems[3]!.url });
      player.stop();
    });

    it('keeps the stem where it sits in the mix (a muted stem stays muted)', async () => {
      const { context, player } = setUpVersions();
      await player.load(stems);
      player.setMix(stems.map((stem) => ({ ...stem, muted: stem.id === 's0' })));
      await player.replaceStem({ ...enhancedVocals, muted: false });
      // The master, then one gain per stem: the vocals' gain stays at 0.
      expect(context.gains[1]!.gain.value).toBe(0);
    });

    it('while paused: swapped without starting anything; Play then plays the new recording', async () => {
      const { context, player } = setUpVersions();
      await player.load(stems);
      expect(await player.replaceStem(enhancedVocals)).toBe(true);
      expect(context.starts).toEqual([]);
      await player.play();
      expect(context.starts).toHaveLength(4);
      expect(player.sources().s0).toBe(enhancedVocals.url);
      player.stop();
    });

    it('the newest switch wins; a stem not loaded, or a newer load, makes a swap hand nothing over', async () => {
      const { player } = setUpVersions();
      await player.load(stems);
      const toEnhanced = player.replaceStem(enhancedVocals);
      const back = player.replaceStem(stems[0]!);
      expect(await toEnhanced).toBe(false);
      expect(await back).toBe(true);
      expect(player.sources().s0).toBe(stems[0]!.url);

      expect(await player.replaceStem({ ...enhancedVocals, id: 'elsewhere' })).toBe(false);

      const superseded = player.replaceStem(enhancedVocals);
      player.unload();
      expect(await superseded).toBe(false);
    });
  });
});
