import type { ProjectAnalysis } from './exportApi';

/**
 * The analysis view's figures as people read them. A value the analysis lacks (no analysis at all, a key
 * the detector could not settle, a number that is not finite) reads as a dash — never a made-up default.
 */

export const ABSENT = '—';

const PITCH_CLASSES = ['C', 'C♯', 'D', 'D♯', 'E', 'F', 'F♯', 'G', 'G♯', 'A', 'A♯', 'B'] as const;

const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** Spotify's key (pitch class 0–11, −1 when none) and mode (1 major, 0 minor) as a name: 6 + 0 → "F♯ minor". */
export function keyName(key: number | null | undefined, mode: number | null | undefined): string {
  if (!finite(key) || !Number.isInteger(key) || key < 0 || key > 11) return ABSENT;
  const tonality = mode === 1 ? 'major' : mode === 0 ? 'minor' : null;
  return tonality ? `${PITCH_CLASSES[key]} ${tonality}` : PITCH_CLASSES[key]!;
}

export interface AnalysisRow {
  id: string;
  label: string;
  value: string;
}

const fixed = (value: number | null | undefined, digits: number, unit = '') => (finite(value) ? `${value.toFixed(digits)}${unit}` : ABSENT);
/** The 0–1 features, to two decimals. */
const ratio = (value: number | null | undefined) => (finite(value) ? Math.min(1, Math.max(0, value)).toFixed(2) : ABSENT);

/** Every row the view shows, in order; with no analysis every value is a dash. */
export function analysisRows(analysis: ProjectAnalysis | null | undefined): AnalysisRow[] {
  const features = analysis?.spotifyFeatures;
  return [
    { id: 'tempo', label: 'Tempo', value: fixed(features?.tempo, 1, ' BPM') },
    { id: 'key', label: 'Key', value: keyName(features?.key, features?.mode) },
    { id: 'loudness', label: 'Loudness', value: fixed(analysis?.loudnessLufs, 1, ' LUFS') },
    { id: 'time-signature', label: 'Time signature', value: finite(features?.time_signature) && features.time_signature > 0 ? `${features.time_signature}/4` : ABSENT },
    { id: 'danceability', label: 'Danceability', value: ratio(features?.danceability) },
    { id: 'energy', label: 'Energy', value: ratio(features?.energy) },
    { id: 'valence', label: 'Valence', value: ratio(features?.valence) },
    { id: 'acousticness', label: 'Acousticness', value: ratio(features?.acousticness) },
    { id: 'instrumentalness', label: 'Instrumentalness', value: ratio(features?.instrumentalness) },
    { id: 'liveness', label: 'Liveness', value: ratio(features?.liveness) },
    { id: 'speechiness', label: 'Speechiness', value: ratio(features?.speechiness) },
  ];
}
