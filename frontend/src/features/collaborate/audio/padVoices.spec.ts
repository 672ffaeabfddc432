import { COLLABORATION_PADS } from '@stemdeck/proto/vocabulary';
import type { DrumId } from '../../../instruments/drumKit';
import { CollaborationPads, DRUM_OF_PAD, MIN_HIT_SPACING_S, padGain, RESUME_WAIT_MS, type PadEngine } from './padVoices';

/** An audio engine that records hits; its context runs or not, and a resume succeeds or hangs as told. */
function engine(options: { running?: boolean; resumes?: boolean } = {}) {
  let running = options.running ?? true;
  let time = 3;
  const hits: Array<{ id: DrumId; time: number; velocity: number }> = [];
  const waits: number[] = [];
  const fake: PadEngine & { kits: number } = {
    kits: 0,
    start: () => (options.resumes === false ? new Promise<boolean>(() => undefined) : Promise.resolve((running = true))),
    running: () => running,
    now: () => time,
    makeKit: () => {
      fake.kits++;
      return { trigger: (id, at, velocity) => void hits.push({ id, time: at, velocity }) };
    },
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
  return { fake, hits, waits, tick: (seconds: number) => void (time += seconds) };
}

describe('collaboration pads', () => {
  it('gives each of the eight pads its own drum voice, named as the pad', () => {
    expect(Object.keys(DRUM_OF_PAD)).toEqual([...COLLABORATION_PADS]);
    expect(new Set(Object.values(DRUM_OF_PAD)).size).toBe(COLLABORATION_PADS.length);
    expect(DRUM_OF_PAD['Hi-Hat']).toBe('hihat');
    expect(DRUM_OF_PAD['Open Hat']).toBe('openhat');
    expect(DRUM_OF_PAD['Tom 2']).toBe('tom2');
  });

  it('scales velocity 0–127 to 0–1, clamped', () => {
    expect([127, 0, 63.5, 300, -4, Number.NaN].map(padGain)).toEqual([1, 0, 0.5, 1, 0, 1]);
  });

  it('plays every pad now on one kit, at its velocity', async () => {
    const { fake, hits } = engine();
    for (const pad of COLLABORATION_PADS) expect(await new CollaborationPads(fake).play(pad, 127)).toBe(true);
    const pads = new CollaborationPads(fake);
    await pads.play('Snare', 127);
    await pads.play('Crash', 64);
    expect(hits.slice(-2)).toEqual([
      { id: 'snare', time: 3, velocity: 1 },
      { id: 'crash', time: 3, velocity: 64 / 127 },
    ]);
    expect(hits.slice(0, 8).map((hit) => hit.id)).toEqual(Object.values(DRUM_OF_PAD));
  });

  it('makes the kit once, and nudges a repeat of one voice within the same instant (the voice refuses equal times)', async () => {
    const { fake, hits, tick } = engine();
    const pads = new CollaborationPads(fake);
    await pads.play('Kick', 127);
    await pads.play('Kick', 127);
    await pads.play('Snare', 127);
    tick(0.5);
    await pads.play('Kick', 127);
    expect(fake.kits).toBe(1);
    expect(hits.map((hit) => [hit.id, hit.time])).toEqual([
      ['kick', 3],
      ['kick', 3 + MIN_HIT_SPACING_S],
      ['snare', 3],
      ['kick', 3.5],
    ]);
  });

  it('resumes a suspended context and plays; drops the hit when the page has not been clicked yet', async () => {
    const resumable = engine({ running: false });
    expect(await new CollaborationPads(resumable.fake).play('Ride', 127)).toBe(true);
    expect(resumable.hits).toHaveLength(1);

    const stuck = engine({ running: false, resumes: false });
    expect(await new CollaborationPads(stuck.fake).play('Ride', 127)).toBe(false);
    expect(stuck.waits).toEqual([RESUME_WAIT_MS]);
    expect(stuck.hits).toHaveLength(0);
    expect(stuck.fake.kits).toBe(0);
  });
});
