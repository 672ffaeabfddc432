import type { FamilyTrackSpec, VocalKind } from '../family-track';
import { hashSeed, Rng } from '../random';
import { STYLE_NAMES, type StyleName } from '../styles';
import { playedBpm } from '../tuning/catalog';
import { TUNING_STYLE_NAMES, type TuningStyleName } from '../tuning/styles';

export type WideFamilyName = 'wide' | 'wide2' | 'wide3' | 'wide4' | 'wide5' | 'wide6';

export interface WideTrackSpec extends FamilyTrackSpec {
  style: StyleName | TuningStyleName;
}

/** Vocal kinds in turn: formant singers most, then voice patches, rapped and spoken lines. */
const VOCALS: VocalKind[] = ['formant', 'soundfont', 'formant', 'rapped', 'formant', 'soundfont', 'spoken', 'formant'];
/** The second family has one voice patch, so it sings with it half as often and speaks more. */
const WIDE2_VOCALS: VocalKind[] = ['formant', 'rapped', 'formant', 'soundfont', 'formant', 'spoken', 'rapped', 'formant'];
/** The third family sings with its FOF singer (the 'soundfont' kind) as often as with the drawn singers. */
const WIDE3_VOCALS: VocalKind[] = ['formant', 'soundfont', 'rapped', 'soundfont', 'formant', 'spoken', 'soundfont', 'formant'];
/** The fourth family's voice patches are sampled (Sonivox's choir, oohs, synth voice): as often as the third's. */
const WIDE4_VOCALS = WIDE3_VOCALS;
/** The fifth family has two choir recordings with a clear pitch: it sings with them as often as the first family. */
const WIDE5_VOCALS = VOCALS;
/** The sixth family sings words to the melody in half its songs; the other half as the fourth family. */
const WIDE6_VOCALS: VocalKind[] = ['sung', 'soundfont', 'sung', 'rapped', 'sung', 'formant', 'sung', 'spoken'];
const STYLES: (StyleName | TuningStyleName)[] = [...STYLE_NAMES, ...TUNING_STYLE_NAMES];

/**
 * `count` songs of `seconds` each (`--set wide`) for training only: the development styles and the tuning
 * grooves in turn, at a tempo within the range each is played at, tonic and mode drawn, the vocal kinds in
 * turn, every song played and sung by the wide family's sources (family.ts), or with `wide2` (`--set wide2`)
 * by the second family's (wide2/family.ts; ids `wide2-<seed>-nnnn`, so its songs differ from the first's),
 * with `wide3` by the third's (wide3/family.ts; ids `wide3-<seed>-nnnn`), with `wide4` by the fourth's
 * (wide4/family.ts; ids `wide4-<seed>-nnnn`), with `wide5` by the fifth's (wide5/family.ts; ids `wide5-<seed>-nnnn`),
 * with `wide6` by the sixth's (wide6/family.ts; ids `wide6-<seed>-nnnn`).
 * Song n is the same whatever `count` is.
 */
export function wideCatalog(count: number, seconds: number, seed: number, family: WideFamilyName = 'wide'): WideTrackSpec[] {
  const turns = new Map<string, number>();
  const vocals = { wide: VOCALS, wide2: WIDE2_VOCALS, wide3: WIDE3_VOCALS, wide4: WIDE4_VOCALS, wide5: WIDE5_VOCALS, wide6: WIDE6_VOCALS }[family];
  return Array.from({ length: count }, (_, i) => {
    const id = `${family}-${seed}-${String(i + 1).padStart(4, '0')}`;
    const draw = new Rng(hashSeed(`stemdeck-wide-${id}`));
    const style = STYLES[(i + seed) % STYLES.length];
    const [low, high] = playedBpm(style);
    const vocal = vocals[i % vocals.length];
    const kind = vocal === 'rapped' ? 'spoken' : vocal;
    const vocalTurn = turns.get(kind) ?? 0;
    turns.set(kind, vocalTurn + 1);
    return {
      id,
      style,
      bpm: draw.int(low, high),
      tonicPitchClass: draw.int(0, 11),
      mode: draw.chance(0.5) ? 'major' : 'minor',
      durationSeconds: seconds,
      seed: hashSeed(`stemdeck-wide-song-${id}`),
      vocal,
      vocalTurn: vocalTurn + seed * 1000,
    };
  });
}
