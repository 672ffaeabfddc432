import type { EngineName, StemType } from '../../api/mediaTypes';
import { STEM_TYPES } from '../../api/mediaTypes';

/** A stem as the mixer holds it (seed 000 §3). Volume is in dB (−60…+12). */
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
}

export const VOLUME_MIN_DB = -60;
export const VOLUME_MAX_DB = 12;
export const VOLUME_STEP_DB = 0.1;

/**
 * GET /api/projects/:id/stems answers an array of stems, or (seed 000 §3) `{stems: {type: url}}`. The map
 * form gets client ids stem-N and defaults: unmuted, quality "High". The seed's default volume 75 belongs
 * to a 0–100 scale and lies outside the −60…+12 dB slider, so map-form stems start at unity (0 dB).
 */
export function normalizeStems(answer: unknown): MixerStem[] {
  if (Array.isArray(answer)) {
    return answer.map((raw: Partial<MixerStem> & { type: StemType; url: string }, index) => ({
      id: raw.id ?? `stem-${index + 1}`,
      projectId: raw.projectId ?? null,
      type: raw.type,
      engine: raw.engine ?? null,
      url: raw.url,
      volume: clampVolume(raw.volume ?? 0),
      muted: raw.muted ?? false,
      soloed: raw.soloed ?? false,
      quality: raw.quality ?? 'High',
    }));
  }
  const map = (answer as { stems?: Record<string, unknown> } | null)?.stems;
  if (!map || typeof map !== 'object') return [];
  return Object.entries(map)
    .filter((entry): entry is [StemType, string] => (STEM_TYPES as readonly string[]).includes(entry[0]) && typeof entry[1] === 'string')
    .map(([type, url], index) => ({ id: `stem-${index + 1}`, projectId: null, type, engine: null, url, volume: 0, muted: false, soloed: false, quality: 'High' }));
}

export const clampVolume = (db: number): number => Math.min(VOLUME_MAX_DB, Math.max(VOLUME_MIN_DB, Number.isFinite(db) ? db : 0));

/** Seed 000 §5: gain = 10^(dB/20). */
export const dbToGain = (db: number): number => 10 ** (clampVolume(db) / 20);

/** What a stem contributes to the mix: silent when muted, or when others are soloed and it is not. */
export function effectiveGain(stem: Pick<MixerStem, 'volume' | 'muted' | 'soloed'>, anySoloed: boolean): number {
  if (stem.muted || (anySoloed && !stem.soloed)) return 0;
  return dbToGain(stem.volume);
}

