import type { Rng } from '../random';
import type { MidiChannelSetup, MidiNote, MidiSong } from '../smf';
import type { BarPlan, SectionKind, SongPlan } from '../song';
import type { AccompanimentRole, InstrumentChoice } from '../styles';
import { pitchClass } from '../theory';
import { gridHits, stepBeat } from './grid';
import { voiceChord } from './voicing';

export interface AccompanimentInstrument extends InstrumentChoice {
  channel: number;
  pan: number;
}

/** Which slots play in which section: the first always, the others build the arrangement up. */
const SLOT_SECTIONS: SectionKind[][] = [
  ['intro', 'verse', 'chorus', 'bridge', 'outro'],
  ['verse', 'chorus', 'bridge', 'outro'],
  ['intro', 'chorus', 'bridge', 'outro'],
];

/** Register [lo, hi] per role, in MIDI notes. */
const REGISTER: Record<AccompanimentRole, [number, number]> = {
  block: [55, 74],
  pad: [50, 72],
  arp: [60, 86],
  stabs: [60, 79],
  power: [40, 55],
  strum: [48, 72],
  chop: [64, 81],
};

/** 'other' stem: 2–3 GM instruments comping in key, each panned to its own place with CC10. */
export function writeAccompaniment(plan: SongPlan, rng: Rng, microsPerQuarter: number): { song: MidiSong; instruments: AccompanimentInstrument[] } {
  const slotCount = plan.style.other.length === 2 || rng.chance(0.25) ? 2 : 3;
  const side = rng.chance(0.5) ? -1 : 1;
  const instruments: AccompanimentInstrument[] = [];
  plan.style.other.slice(0, slotCount).forEach((choices, slot) => {
    const pan = slot === 0 ? 64 + side * rng.int(20, 42) : slot === 1 ? 64 - side * rng.int(24, 46) : 64 + rng.int(-14, 14);
    // The same patch twice only as double-tracked power chords (hard left/right), never by accident.
    const fresh = choices.filter((c) => c.role === 'power' || !instruments.some((i) => i.program === c.program));
    instruments.push({ ...rng.pick(fresh.length > 0 ? fresh : choices), channel: slot, pan });
  });

  const notes: MidiNote[] = [];
  instruments.forEach((inst, slot) => {
    let previous: number[] | null = null;
    for (const bar of plan.bars) {
      if (!SLOT_SECTIONS[slot].includes(bar.section)) continue;
      const [lo, hi] = REGISTER[inst.role];
      const voicing = voiceChord(bar.chord, lo, hi, previous, inst.role === 'pad' ? 4 : 3);
      previous = voicing;
      const level = bar.section === 'chorus' || bar.section === 'outro' ? 1 : 0.82;
      notes.push(...playBar(inst, bar, voicing, plan, rng, level));
    }
  });

  const channels: MidiChannelSetup[] = instruments.map((i) => ({
    channel: i.channel,
    program: i.program,
    pan: i.pan,
    volume: 100,
    reverbSend: 30,
  }));
  return { song: { microsPerQuarter, channels, notes, endBeat: plan.totalBeats }, instruments };
}

function playBar(inst: AccompanimentInstrument, bar: BarPlan, voicing: number[], plan: SongPlan, rng: Rng, level: number): MidiNote[] {
  const out: MidiNote[] = [];
  const { swing, compGrid } = plan.style;
  const add = (beatInBar: number, beats: number, pitch: number, velocity: number) =>
    out.push({
      channel: inst.channel,
      beat: bar.startBeat + beatInBar + rng.range(0, 0.01),
      beats,
      pitch,
      velocity: Math.round(velocity * level) + rng.int(-5, 5),
    });
  const chordHit = (beatInBar: number, beats: number, velocity: number, pitches = voicing) => pitches.forEach((p) => add(beatInBar, beats, p, velocity));

  switch (inst.role) {
    case 'pad':
      // One sustained chord per chord change.
      if (bar.barInChord === 0) chordHit(0, 4 * plan.style.barsPerChord - 0.05, 68);
      break;
    case 'block': {
      const hits = gridHits(compGrid, bar.index);
      hits.forEach((h, i) => {
        const next = i + 1 < hits.length ? hits[i + 1].step : 16;
        chordHit(stepBeat(h.step, swing), ((next - h.step) / 4) * 0.9, h.step % 4 === 0 ? 84 : 74);
      });
      // Left hand: the root an octave below on the downbeat.
      add(0, 1.8, voicing[0] - 12 - pitchClass(voicing[0] - bar.chord.root), 72);
      break;
    }
    case 'stabs':
      for (const h of gridHits(compGrid, bar.index)) chordHit(stepBeat(h.step, swing), 0.3, 92);
      break;
    case 'arp': {
      // Up-down broken chord over two octaves; sixteenths at slow tempos, eighths otherwise.
      const step = plan.spec.bpm < 100 ? 0.25 : 0.5;
      const shape = [...voicing, ...voicing.map((p) => p + 12)];
      const order = [...shape, ...shape.slice(1, -1).reverse()];
      for (let i = 0; i * step < 4; i++) add(i * step + (i % 2 === 1 ? (swing * step) / 2 : 0), step * 0.95, order[i % order.length], i % 4 === 0 ? 80 : 66);
      break;
    }
    case 'power': {
      const below = voicing[0] - pitchClass(voicing[0] - bar.chord.root);
      const root = below < 40 ? below + 12 : below; // E2 is the lowest guitar string
      const power = [root, root + 7, root + 12];
      const chug = bar.section === 'chorus' || bar.section === 'outro';
      if (chug) for (let i = 0; i < 8; i++) chordHit(i * 0.5, 0.45, i % 2 === 0 ? 100 : 88, power);
      else chordHit(0, 3.9, 92, power);
      break;
    }
    case 'strum': {
      // Down/up strums with the strings rolled a few ms apart.
      const strings = [voicing[0] - 12, voicing[0] - 5, ...voicing, voicing[0] + 12].filter((p) => p >= 40).sort((a, b) => a - b);
      for (const s of [0, 4, 6, 10, 12, 14]) {
        const down = s % 4 === 0;
        const order = down ? strings : [...strings].reverse().slice(0, 4);
        order.forEach((p, k) => add(s / 4 + k * 0.012, 0.45, p, down ? 84 : 66));
      }
      break;
    }
    case 'chop':
      for (const h of gridHits('..x.x..x..x.x..x', bar.index)) chordHit(stepBeat(h.step, swing), 0.14, h.step % 4 === 0 ? 96 : 84);
      break;
  }
  return out;
}
