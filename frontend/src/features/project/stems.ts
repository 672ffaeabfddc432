import type { EngineName, Stem, StemType } from '../../api/mediaTypes';
import { clampVolume } from '../../audio/stemGain';

/** A stem as the mixer holds it. Volume is in dB (−60…+12). */
export interface MixerStem {
  id: string;
  projectId: string | null;
  type: StemType;
  engine: EngineName | null;
  url: string;
  volume: number;
  muted: boolean;
  soloed: boolean;
  quality: string;
  /** Which recording plays: the separated original or its enhanced version (`url` is that version's). */
  version: Stem['version'];
  /** The newest enhanced version, null until an enhancement has finished for this stem. */
  enhanced: Stem['enhanced'];
}

/** A stem as the server sends it. */
export type StemAnswer = Partial<MixerStem> & Pick<MixerStem, 'id' | 'type' | 'url'>;

/**
 * The stems the server answers (GET /api/projects/:id/stems, stems_partial, stems_ready), as the mixer
 * holds them: the volume clamped to the slider's range, missing mix fields at their defaults.
 */
export function normalizeStems(answer: ReadonlyArray<StemAnswer>): MixerStem[] {
  return answer.map((raw) => ({
    id: raw.id,
    projectId: raw.projectId ?? null,
    type: raw.type,
    engine: raw.engine ?? null,
    url: raw.url,
    volume: clampVolume(raw.volume ?? 0),
    muted: raw.muted ?? false,
    soloed: raw.soloed ?? false,
    quality: raw.quality ?? 'High',
    version: raw.version ?? 'original',
    enhanced: raw.enhanced ?? null,
  }));
}
