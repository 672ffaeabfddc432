import type { Rng } from '../random';
import type { MidiNote, MidiSong } from '../smf';
import type { BarPlan, SongPlan } from '../song';
import type { BassPatternName } from '../styles';
import { pitchClass } from '../theory';

const BASS_CHANNEL = 0;
/** Lowest root; bass roots fall in E1..D#2, fifths and octaves above. */
const LOWEST_ROOT = 28;

/**
 * R root, 3 the chord's third, 5 fifth, 8 octave, N next chord's root (anticipation),
 * A a semitone below the next chord's root (walking approach), d dead/muted note.
 */
type Degree = 'R' | '3' | '5' | '8' | 'N' | 'A' | 'd';
/** [step, length in steps, degree]; steps are sixteenths, 32-step patterns span two bars. */
type BassHit = [number, number, Degree];

const PATTERNS: Record<BassPatternName, BassHit[]> = {
  pop: [[0, 3, 'R'], [3, 3, 'R'], [6, 2, 'R'], [8, 3, '5'], [11, 3, 'R'], [14, 2, 'N']],
  eighths: [[0, 2, 'R'], [2, 2, 'R'], [4, 2, 'R'], [6, 2, 'R'], [8, 2, 'R'], [10, 2, 'R'], [12, 2, '8'], [14, 2, 'N']],
  funk: [[0, 2, 'R'], [3, 1, '8'], [4, 1, 'd'], [6, 1, 'R'], [7, 2, '5'], [10, 2, '8'], [12, 1, 'd'], [13, 1, 'R'], [14, 2, '5']],
  offbeat: [[2, 2, 'R'], [6, 2, 'R'], [10, 2, '8'], [14, 2, 'R']],
  octaves: [[0, 2, 'R'], [2, 2, '8'], [4, 2, 'R'], [6, 2, '8'], [8, 2, 'R'], [10, 2, '8'], [12, 2, 'R'], [14, 2, 'N']],
  sustain: [[0, 7, 'R'], [7, 1, 'R'], [8, 6, '5'], [14, 2, '8']],
  dnb: [[0, 10, 'R'], [10, 6, 'R'], [16, 6, '8'], [22, 4, '5'], [26, 6, 'R']],
  walking: [[0, 4, 'R'], [4, 4, '3'], [8, 4, '5'], [12, 4, 'A']],
  reggae: [[2, 2, 'R'], [4, 3, 'R'], [8, 2, '5'], [10, 2, '8'], [12, 3, '5']],
  bossa: [[0, 6, 'R'], [6, 2, '5'], [8, 6, '5'], [14, 2, 'R']],
  disco: [[0, 2, 'R'], [2, 2, '8'], [4, 2, 'R'], [6, 2, '8'], [8, 2, 'R'], [10, 2, '8'], [12, 1, 'R'], [13, 1, '8'], [14, 2, '5']],
  'two-feel': [[0, 8, 'R'], [8, 8, '5']],
  'eight-oh-eight': [[0, 7, 'R'], [7, 3, 'R'], [10, 6, '8']],
  dub: [[0, 3, 'R'], [3, 1, 'R'], [4, 2, '5'], [10, 2, 'R'], [12, 3, '8'], [15, 1, '5']],
  boogie: [[0, 3, 'R'], [3, 1, 'R'], [4, 3, '3'], [7, 1, '3'], [8, 3, '5'], [11, 1, '5'], [12, 3, '8'], [15, 1, '5']],
  quarters: [[0, 4, 'R'], [4, 4, '5'], [8, 4, '8'], [12, 4, '5']],
  'root-fifth': [[0, 4, 'R'], [8, 4, '5'], [14, 2, 'N']],
};

/** Roots/fifths/octaves following the chords, centred, in a GM bass program. */
export function writeBass(plan: SongPlan, rng: Rng, microsPerQuarter: number): MidiSong {
  const notes: MidiNote[] = [];
  const program = rng.pick(plan.style.bass.programs);
  for (const bar of plan.bars) {
    // Intros hold whole-note roots; the groove enters with the verse.
    const hits: BassHit[] = bar.section === 'intro' ? [[0, 16, 'R']] : barHits(PATTERNS[plan.style.bass.pattern], bar);
    for (const [step, length, degree] of hits) {
      const velocity = degree === 'd' ? 45 : step % 4 === 0 ? 104 : 92;
      notes.push({
        channel: BASS_CHANNEL,
        beat: bar.startBeat + step / 4 + (step % 2 === 1 ? plan.style.swing / 4 : 0),
        // Slightly detached, as a player's fingers would leave it.
        beats: degree === 'd' ? 0.12 : (length / 4) * 0.9,
        pitch: bassPitch(bar, degree),
        velocity: velocity + rng.int(-6, 6),
      });
    }
  }
  return {
    microsPerQuarter,
    channels: [{ channel: BASS_CHANNEL, program, pan: 64, volume: 110, reverbSend: 0 }],
    notes,
    endBeat: plan.totalBeats,
  };
}

function barHits(pattern: BassHit[], bar: BarPlan): BassHit[] {
  const twoBar = pattern.some(([step]) => step >= 16);
  if (!twoBar) return pattern;
  const half = bar.barInChord % 2 === 0 ? 0 : 16;
  return pattern.filter(([step]) => step >= half && step < half + 16).map(([s, l, d]) => [s - half, Math.min(l, 16 - (s - half)), d]);
}

function bassPitch(bar: BarPlan, degree: Degree): number {
  const root = LOWEST_ROOT + pitchClass(bar.chord.root - LOWEST_ROOT);
  switch (degree) {
    case '5':
      return root + (bar.chord.quality === 'diminished' ? 6 : 7);
    case '3':
      return root + (bar.chord.quality === 'major' ? 4 : 3);
    case '8':
      return root + 12;
    case 'N':
      return LOWEST_ROOT + pitchClass(bar.nextChord.root - LOWEST_ROOT);
    case 'A': {
      const next = LOWEST_ROOT + pitchClass(bar.nextChord.root - LOWEST_ROOT);
      return next > LOWEST_ROOT ? next - 1 : next + 1;
    }
    default:
      return root;
  }
}
