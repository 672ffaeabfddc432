import type { TrackSpec } from './catalog';
import { Rng } from './random';
import { microsPerQuarter } from './smf';
import { styleDef, type StyleDef } from './styles';
import { PROGRESSIONS, parseProgression, type Chord } from './theory';

export type SectionKind = 'intro' | 'verse' | 'chorus' | 'bridge' | 'outro';

export interface BarPlan {
  index: number;
  startBeat: number;
  section: SectionKind;
  barInSection: number;
  sectionBars: number;
  chord: Chord;
  /** Bar index within the current chord (0 unless a chord lasts several bars). */
  barInChord: number;
  /** Chord of the following bar, for approach notes. */
  nextChord: Chord;
}

export interface SongPlan {
  spec: TrackSpec;
  style: StyleDef;
  /** From the integer MIDI tempo, so synthesized vocals line up with the fluidsynth stems. */
  secondsPerBeat: number;
  bars: BarPlan[];
  /** Beats rendered (a bar beyond the cut, so nothing stops audibly before the end). */
  totalBeats: number;
  progressions: Record<'verse' | 'chorus' | 'bridge', string>;
}

const BEATS_PER_BAR = 4;

/** Section order of a produced song; repeated verse/chorus if the track needs more bars. */
const FORM: SectionKind[] = ['intro', 'verse', 'chorus', 'verse', 'chorus', 'bridge', 'chorus', 'chorus', 'outro'];

export function planSong(spec: TrackSpec, rng: Rng): SongPlan {
  const style = styleDef(spec.style);
  const secondsPerBeat = microsPerQuarter(spec.bpm) / 1e6;
  const barsNeeded = Math.ceil(spec.durationSeconds / secondsPerBeat / BEATS_PER_BAR) + 1;
  const long = spec.durationSeconds >= 120;

  const pool = PROGRESSIONS[spec.mode];
  const verse = rng.pick(pool);
  // If the verse loop alone could pass for the relative key (no cadence, or not starting on the
  // tonic), the chorus must establish the key: the ground truth has to be musically true.
  const chorus = establishesKey(verse) && rng.chance(0.5) ? verse : rng.pick(pool.filter(establishesKey));
  const bridge = rng.pick(pool.filter((p) => p !== verse));
  const progressions = { verse, chorus, bridge };

  // Section lengths in chords: long tracks get full 8-chord sections, 30 s clips a compact form.
  const chordsIn: Record<SectionKind, number> = {
    intro: long ? 4 : 1,
    verse: long ? 8 : 4,
    chorus: long ? 8 : 4,
    bridge: 4,
    outro: 4,
  };

  const bars: BarPlan[] = [];
  for (let f = 0; bars.length < barsNeeded; f++) {
    const kind = f < FORM.length ? FORM[f] : f % 2 === 0 ? 'verse' : 'chorus';
    const progText = kind === 'chorus' ? chorus : kind === 'bridge' ? bridge : verse;
    const chords = parseProgression(progText, spec.tonicPitchClass, spec.mode);
    const sectionBars = chordsIn[kind] * style.barsPerChord;
    for (let b = 0; b < sectionBars; b++) {
      const chordIndex = Math.floor(b / style.barsPerChord) % chords.length;
      bars.push({
        index: bars.length,
        startBeat: bars.length * BEATS_PER_BAR,
        section: kind,
        barInSection: b,
        sectionBars,
        chord: chords[chordIndex],
        barInChord: b % style.barsPerChord,
        nextChord: chords[chordIndex], // patched below once the next bar is known
      });
    }
  }
  bars.length = barsNeeded;
  for (let i = 0; i < bars.length - 1; i++) bars[i].nextChord = bars[i + 1].chord;
  return { spec, style, secondsPerBeat, bars, totalBeats: bars.length * BEATS_PER_BAR, progressions };
}

/** Starts on the tonic chord and has a dominant (V) or, in minor, a subdominant (iv) pulling back to it. */
function establishesKey(progression: string): boolean {
  const chords = progression.split('-');
  const startsOnTonic = chords[0] === 'I' || chords[0] === 'i';
  return startsOnTonic && (chords.includes('V') || chords.includes('iv'));
}
