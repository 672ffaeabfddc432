import type { Rng } from '../random';
import type { BarPlan, SectionKind, SongPlan } from '../song';
import { nearestPitch, pitchClass, scaleNotes } from '../theory';

export type Vowel = 'a' | 'e' | 'i' | 'o' | 'u';
export type Consonant = 's' | 'sh' | 'f' | 'h' | 't' | 'k' | 'p' | 'd' | 'm' | 'n' | 'l';
export type VoiceType = 'male' | 'female';

export interface VocalNote {
  beat: number;
  beats: number;
  pitch: number;
  velocity: number;
  /** Syllable: onset consonant (none for a vowel onset) and the sung vowel. */
  consonant: Consonant | null;
  vowel: Vowel;
  /** Sung on the previous syllable's vowel without re-articulating (melisma). */
  slur: boolean;
}

const SUNG_SECTIONS: SectionKind[] = ['verse', 'chorus', 'bridge'];
const CONSONANTS: (Consonant | null)[] = [null, 'l', 'm', 'n', 'd', 't', 's', 'k', 'h', 'sh', 'f', 'p', 'l', 'n', 'd'];
const VOWELS: Vowel[] = ['a', 'a', 'a', 'e', 'e', 'i', 'i', 'o', 'o', 'u'];
/** Comfortable centre of the tessitura. */
const VOICE_CENTRE: Record<VoiceType, number> = { male: 53, female: 62 };

/**
 * A sung melody in the scale that fits the chords: chord tones on strong beats, stepwise
 * motion between, phrases with breaths, and phrase endings that land on the tonic whenever
 * the chord holds it, so the key is audible in the vocal line too. It sits around
 * `rangeCentre` when given, else around the voice type's usual centre.
 */
export function writeMelody(plan: SongPlan, rng: Rng, rangeCentre?: number): { notes: VocalNote[]; voice: VoiceType } {
  const voice: VoiceType = rng.chance(0.5) ? 'male' : 'female';
  const tonic = plan.spec.tonicPitchClass;
  const home = nearestPitch(tonic, rangeCentre ?? VOICE_CENTRE[voice]);
  // Fast songs get quarter-note syllables, others eighths; phrases last two bars (four when fast).
  const unit = plan.spec.bpm >= 150 ? 1 : 0.5;
  const phraseBeats = plan.spec.bpm >= 150 ? 16 : 8;
  const unitsPerPhrase = phraseBeats / unit;

  const notes: VocalNote[] = [];
  let previousPitch = home;
  for (const section of sectionsOf(plan)) {
    if (!SUNG_SECTIONS.includes(section.kind)) continue;
    const chorus = section.kind === 'chorus';
    // Choruses sit higher than verses.
    const [lo, hi] = chorus ? [home - 2, home + 12] : [home - 5, home + 9];
    const rhythms = [phraseRhythm(unitsPerPhrase, rng), phraseRhythm(unitsPerPhrase, rng)];
    const phrases = Math.floor((section.bars.length * 4) / phraseBeats);
    let hook: VocalNote[] | null = null;
    for (let p = 0; p < phrases; p++) {
      const phraseStart = section.bars[0].startBeat + p * phraseBeats;
      // The chorus hook comes back every other phrase, note for note.
      if (chorus && hook && p % 2 === 0) {
        notes.push(...hook.map((n) => ({ ...n, beat: n.beat + p * phraseBeats })));
        previousPitch = hook[hook.length - 1].pitch;
        continue;
      }
      const phrase: VocalNote[] = [];
      const rhythm = rhythms[p % 2];
      rhythm.forEach(([startUnit, lengthUnits], i) => {
        const beat = phraseStart + startUnit * unit;
        const bar = barAt(plan, beat);
        const last = i === rhythm.length - 1;
        // Phrase openings jump to the section's register: up a fifth in the chorus.
        const from = i === 0 ? (chorus ? home + 7 : home) : previousPitch;
        const pitch = choosePitch({ previous: from, beat, bar, lo, hi, tonic, plan, last, first: i === 0, rng });
        previousPitch = pitch;
        const slur = i > 0 && !last && rng.chance(0.12);
        const prev = phrase[phrase.length - 1];
        phrase.push({
          beat,
          beats: lengthUnits * unit,
          pitch,
          velocity: (chorus ? 100 : 90) + rng.int(-6, 6) - (last ? 6 : 0),
          consonant: slur ? null : rng.pick(CONSONANTS),
          vowel: slur && prev ? prev.vowel : rng.pick(VOWELS),
          slur: slur && prev !== undefined,
        });
      });
      if (chorus && p === 0) hook = phrase.map((n) => ({ ...n, beat: n.beat - phraseStart + section.bars[0].startBeat }));
      notes.push(...phrase);
    }
  }
  return { notes, voice };
}

interface SectionSpan {
  kind: SectionKind;
  bars: BarPlan[];
}

function sectionsOf(plan: SongPlan): SectionSpan[] {
  const spans: SectionSpan[] = [];
  for (const bar of plan.bars) {
    if (bar.barInSection === 0 || spans.length === 0) spans.push({ kind: bar.section, bars: [] });
    spans[spans.length - 1].bars.push(bar);
  }
  return spans;
}

function barAt(plan: SongPlan, beat: number): BarPlan {
  return plan.bars[Math.min(plan.bars.length - 1, Math.floor(beat / 4))];
}

/** [startUnit, lengthUnits] pairs: sing for 10–13 units, breathe for the rest; the last note is held. */
function phraseRhythm(units: number, rng: Rng): [number, number][] {
  const sung = rng.int(Math.round(units * 0.62), Math.round(units * 0.8));
  let at = rng.chance(0.3) ? 1 : 0;
  const out: [number, number][] = [];
  while (at < sung) {
    let len = [1, 1, 1, 2, 2, 2, 3, 4][rng.int(0, 7)];
    if (sung - at - len < 2) len = sung - at; // fold the tail into one held final note
    out.push([at, len]);
    at += len;
  }
  return out;
}

interface PitchContext {
  previous: number;
  beat: number;
  bar: BarPlan;
  lo: number;
  hi: number;
  tonic: number;
  plan: SongPlan;
  first: boolean;
  last: boolean;
  rng: Rng;
}

function choosePitch(c: PitchContext): number {
  const chord = c.bar.chord;
  const candidates = scaleNotes(c.tonic, c.plan.spec.mode, c.lo, c.hi, chord);
  const chordTone = (p: number) => chord.tones.includes(pitchClass(p));
  const tonicInChord = chord.tones.includes(c.tonic);
  if (c.last || c.first) {
    // Phrase edges: the tonic if the chord holds it, else the nearest chord tone.
    const targets = candidates.filter((p) => (tonicInChord ? pitchClass(p) === c.tonic : chordTone(p)));
    return closest(targets, c.previous);
  }
  const strong = Math.abs(c.beat - Math.round(c.beat)) < 1e-6;
  const weights = candidates.map((p) => {
    const leap = Math.abs(p - c.previous);
    if (leap > 7) return 0;
    let w = Math.exp(-leap / 2.2);
    if (leap === 0) w *= 0.5;
    if (chordTone(p)) w *= strong ? 5 : 1.6;
    if (pitchClass(p) === c.tonic) w *= 1.5;
    return w;
  });
  if (weights.every((w) => w === 0)) return closest(candidates, c.previous);
  return candidates[c.rng.weightedIndex(weights)];
}

function closest(pitches: number[], target: number): number {
  return pitches.reduce((best, p) => (Math.abs(p - target) < Math.abs(best - target) ? p : best), pitches[0]);
}
