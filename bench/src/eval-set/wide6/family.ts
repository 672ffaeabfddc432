import type { SourceFamily } from '../family-track';
import { missingTools } from '../render';
import { SINGING_VOICES } from '../voice/sung';
import { missingWide4Tools, WIDE4_FAMILY } from '../wide4/family';

/**
 * The sixth training family: the fourth family's sounds (Sonivox EAS and Hydrogen's kits), its vocals mostly
 * words sung to the melody by festival's singing mode (voice/sung.ts: recorded diphone voices re-pitched to the
 * notes), which no other set has: the others sing without words (voice patches, formant singers) or say words
 * without the melody (speakers). The rest of its vocals are the fourth family's kinds, with this family's lines.
 */
export const WIDE6_GENERATOR_VERSION = 1;

/** Original lines for the sixth family's sung, spoken and rapped vocals (none of the other sets' lines). */
const WIDE6_LINES: readonly string[] = [
  'we sang along to every song we knew',
  'the summer rain is falling on the roof',
  'hold on to me and never let me down',
  'the window open and the radio on',
  'I will be waiting by the water tonight',
  'the stars are out and all the streets are gold',
  'come back to me before the morning light',
  'we found a place where nobody could see',
  'my heart is beating like a drum again',
  'the road is long but we are going home',
];

const SINGING_MODE = '/usr/share/festival/singing-mode.scm';

export const WIDE6_FAMILY: SourceFamily = {
  ...WIDE4_FAMILY,
  generatorVersion: WIDE6_GENERATOR_VERSION,
  singingVoice: (turn) => SINGING_VOICES[turn % SINGING_VOICES.length],
  lines: WIDE6_LINES,
};

export function missingWide6Tools(): string[] {
  return [...missingWide4Tools(), ...missingTools([{ file: SINGING_MODE, pkg: 'festival' }])];
}
