import type { Rng } from '../random';
import type { MidiNote, MidiSong } from '../smf';
import type { BarPlan, SongPlan } from '../song';
import { DRUM_KEYS, type DrumGrid, type DrumVoice } from '../styles';
import { gridHits, stepBeat, strengthVelocity } from './grid';

const DRUM_CHANNEL = 9;
const HIT_BEATS = 0.25;

/** GM channel-10 drum part: style groove per section, crashes on section starts, fills before them. */
export function writeDrums(plan: SongPlan, rng: Rng, microsPerQuarter: number): MidiSong {
  const notes: MidiNote[] = [];
  const { style } = plan;
  const kit = rng.pick(style.kits);
  const hit = (voice: DrumVoice, beat: number, velocity: number) =>
    notes.push({
      channel: DRUM_CHANNEL,
      // ~±4 ms of human timing: real, yet far below any tempo estimator's resolution.
      beat: Math.max(0, beat + rng.range(-0.008, 0.008)),
      beats: HIT_BEATS,
      pitch: DRUM_KEYS[voice],
      velocity: velocity + rng.int(-7, 7),
    });

  for (const bar of style.drumless ? [] : plan.bars) {
    const groove = grooveFor(bar, style.grooves);
    const fillFrom = hasFill(bar, plan) ? fillStartStep(bar, rng) : 16;
    for (const [voice, grid] of Object.entries(groove) as [DrumVoice, string][]) {
      for (const h of gridHits(grid, bar.index)) {
        if (h.step >= fillFrom) continue;
        const velocity = strengthVelocity(h.strength) - (isCymbalTick(voice) && h.step % 4 !== 0 ? 12 : 0);
        hit(voice, bar.startBeat + stepBeat(h.step, style.swing), velocity);
      }
    }
    if (bar.barInSection === 0 && bar.section !== 'intro') {
      hit('crash', bar.startBeat, 110);
      if (!groove.kick?.startsWith('x') && !groove.kick?.startsWith('X')) hit('kick', bar.startBeat, 105);
    }
    if (fillFrom < 16) writeFill(bar, fillFrom, rng, hit);
  }
  return {
    microsPerQuarter,
    channels: [{ channel: DRUM_CHANNEL, program: kit, volume: 110, reverbSend: 20 }],
    notes,
    endBeat: plan.totalBeats,
  };
}

function grooveFor(bar: BarPlan, grooves: { intro: DrumGrid; verse: DrumGrid; chorus: DrumGrid }): DrumGrid {
  switch (bar.section) {
    case 'intro':
      return grooves.intro;
    case 'chorus':
    case 'outro':
      return grooves.chorus;
    default:
      return grooves.verse;
  }
}

function isCymbalTick(voice: DrumVoice): boolean {
  return voice === 'closedHat' || voice === 'ride' || voice === 'shaker' || voice === 'tambourine';
}

/** Fill in the last bar of a section, and a short one every fourth bar of long sections. */
function hasFill(bar: BarPlan, plan: SongPlan): boolean {
  const last = bar.barInSection === bar.sectionBars - 1;
  const phraseEnd = bar.sectionBars >= 8 && bar.barInSection % 4 === 3;
  return (last || phraseEnd) && bar.index < plan.bars.length - 1;
}

function fillStartStep(bar: BarPlan, rng: Rng): number {
  const last = bar.barInSection === bar.sectionBars - 1;
  return last && rng.chance(0.5) ? 8 : 12;
}

type Hit = (voice: DrumVoice, beat: number, velocity: number) => void;

/** Sixteenth-note fill: snare roll, descending toms, or a mix, crescending into the next bar. */
function writeFill(bar: BarPlan, fromStep: number, rng: Rng, hit: Hit): void {
  const kind = rng.pick(['snare', 'toms', 'mixed'] as const);
  const toms: DrumVoice[] = ['highTom', 'highTom', 'midTom', 'midTom', 'lowTom', 'lowTom', 'floorTom', 'floorTom'];
  const steps = 16 - fromStep;
  for (let i = 0; i < steps; i++) {
    // Leave a gap now and then so fills aren't machine-gun rolls.
    if (i > 0 && i < steps - 1 && rng.chance(0.2)) continue;
    const progress = i / Math.max(1, steps - 1);
    const voice: DrumVoice =
      kind === 'snare' ? 'snare' : kind === 'toms' ? toms[Math.floor(progress * (toms.length - 1))] : i % 2 === 0 ? 'snare' : toms[Math.floor(progress * (toms.length - 1))];
    hit(voice, bar.startBeat + (fromStep + i) / 4, 78 + Math.round(progress * 34));
  }
  hit('kick', bar.startBeat + fromStep / 4, 96);
}
