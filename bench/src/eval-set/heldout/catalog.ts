import type { FamilyTrackSpec, VocalKind } from '../family-track';
import { hashSeed, Rng } from '../random';
import { PITCH_NAMES, type Mode } from '../theory';
import { HELDOUT_STYLE_NAMES, type HeldoutStyleName } from './styles';

/** Bump whenever the held-out set's bytes would change (independent of the development set's version). */
export const HELDOUT_GENERATOR_VERSION = 3;

export type { VocalKind };

export interface HeldoutTrackSpec extends FamilyTrackSpec {
  style: HeldoutStyleName;
}

interface Row {
  style: HeldoutStyleName;
  bpm: number;
  tonic: (typeof PITCH_NAMES)[number];
  mode: Mode;
  vocal: VocalKind;
}

/**
 * 16 tracks: tempi spread over 66–180 BPM, none of them a development tempo (129 and 160 are in
 * on purpose: half-tempo traps), every pitch class as a tonic, eight major and eight minor,
 * five sung by soundfont voices, six by formant singers, five spoken or rapped. Styles sit at tempi
 * they are played at, so the written tempo is the one a musician would count: trap (half-time snare)
 * only at 143, where it is notated.
 */
const HELDOUT_SET: Row[] = [
  { style: 'cinematic-ballad', bpm: 66, tonic: 'D', mode: 'major', vocal: 'formant' },
  { style: 'jazz-swing', bpm: 71, tonic: 'F', mode: 'minor', vocal: 'rapped' },
  { style: 'reggae', bpm: 80.5, tonic: 'G', mode: 'major', vocal: 'soundfont' },
  { style: 'blues-shuffle', bpm: 89, tonic: 'A', mode: 'major', vocal: 'spoken' },
  { style: 'folk', bpm: 95, tonic: 'E', mode: 'major', vocal: 'formant' },
  { style: 'cinematic-ballad', bpm: 101, tonic: 'C#', mode: 'minor', vocal: 'soundfont' },
  { style: 'reggae', bpm: 108, tonic: 'B', mode: 'minor', vocal: 'formant' },
  { style: 'bossa-nova', bpm: 114, tonic: 'Ab', mode: 'major', vocal: 'soundfont' },
  { style: 'disco', bpm: 121, tonic: 'Eb', mode: 'minor', vocal: 'formant' },
  { style: 'bossa-nova', bpm: 129, tonic: 'F#', mode: 'major', vocal: 'soundfont' },
  { style: 'disco', bpm: 137, tonic: 'C', mode: 'minor', vocal: 'spoken' },
  { style: 'trap', bpm: 143, tonic: 'Bb', mode: 'minor', vocal: 'rapped' },
  { style: 'jazz-swing', bpm: 149, tonic: 'A', mode: 'minor', vocal: 'formant' },
  { style: 'blues-shuffle', bpm: 156, tonic: 'E', mode: 'minor', vocal: 'soundfont' },
  { style: 'jazz-swing', bpm: 160, tonic: 'C', mode: 'major', vocal: 'formant' },
  { style: 'folk', bpm: 180, tonic: 'Eb', mode: 'major', vocal: 'rapped' },
];

export function heldoutCatalog(): HeldoutTrackSpec[] {
  return catalogOf(HELDOUT_SET, 'h', (id) => hashSeed(`stemdeck-heldout-${id}`));
}

function catalogOf(rows: Row[], idPrefix: string, seedOf: (id: string) => number): HeldoutTrackSpec[] {
  const family = (kind: VocalKind) => (kind === 'rapped' ? 'spoken' : kind);
  return rows.map((row, i) => {
    const vocalTurn = rows.slice(0, i).filter((r) => family(r.vocal) === family(row.vocal)).length;
    const tonic = row.tonic.replace('#', 'sharp').toLowerCase();
    const id = `${idPrefix}${String(i + 1).padStart(2, '0')}-${row.style}-${row.bpm}bpm-${tonic}-${row.mode}-${row.vocal}`;
    return {
      id,
      style: row.style,
      bpm: row.bpm,
      tonicPitchClass: PITCH_NAMES.indexOf(row.tonic),
      mode: row.mode,
      durationSeconds: 30,
      seed: seedOf(id),
      vocal: row.vocal,
      vocalTurn,
    };
  });
}

/**
 * Tempi each held-out style is played at, for a re-drawn held-out set (`--set heldout --seed K`); the rows
 * of the fixed set above all lie inside them.
 */
const PLAYED_BPM: Record<HeldoutStyleName, readonly [number, number]> = {
  'blues-shuffle': [80, 170],
  reggae: [66, 110],
  'bossa-nova': [108, 140],
  disco: [110, 136],
  trap: [130, 160],
  'jazz-swing': [70, 180],
  folk: [90, 185],
  'cinematic-ballad': [60, 105],
};

/**
 * A new held-out set from the same sources, drawn from `seed` (nobody has looked at it): every held-out
 * style twice at a tempo drawn within the range it is played at (an integer, or a half for one song in
 * four), tonic and mode drawn, the vocal kinds in the fixed set's proportions (5 soundfont, 6 formant,
 * 5 spoken or rapped) in a drawn order. Ids start with `h<seed>-`; the fixed set is `heldoutCatalog()`.
 */
export function drawnHeldoutCatalog(seed: number): HeldoutTrackSpec[] {
  const draw = new Rng(hashSeed(`stemdeck-heldout-draw-${seed}`));
  const shuffled = <T>(items: T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = draw.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const styles = shuffled([...HELDOUT_STYLE_NAMES, ...HELDOUT_STYLE_NAMES]);
  const vocals = shuffled(HELDOUT_SET.map((row) => row.vocal));
  const rows: Row[] = styles.map((style, i) => {
    const [low, high] = PLAYED_BPM[style];
    const bpm = draw.int(low, high) + (draw.chance(0.25) ? 0.5 : 0);
    return { style, bpm: Math.min(bpm, high), tonic: PITCH_NAMES[draw.int(0, 11)], mode: draw.chance(0.5) ? 'major' : 'minor', vocal: vocals[i] };
  });
  return catalogOf(rows, `h${seed}-`, (id) => hashSeed(`stemdeck-heldout-${seed}-${id}`));
}
