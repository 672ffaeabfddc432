import type { AudioExportFormat, ExportMastering, ExportType, ProjectExportFormat, StemType } from '@stemdeck/proto/vocabulary';
import type { ExportOptions } from './exportApi';

/**
 * What the Export & Share panels decide without React: the names people read for each choice, whether an
 * export can be sent and if not why, the request it sends, and the words of its toasts.
 */

export const EXPORT_TYPE_NAMES: Record<ExportType, string> = {
  'full-mix': 'Full mix',
  individual: 'Individual stems',
  selected: 'Selected stems',
};

export const AUDIO_FORMAT_NAMES: Record<AudioExportFormat, string> = {
  'wav-24-48': 'WAV 24-bit / 48 kHz',
  'wav-16-44': 'WAV 16-bit / 44.1 kHz (dithered)',
  'aiff-24-48': 'AIFF 24-bit / 48 kHz',
  'mp3-320': 'MP3 320 kbps',
  flac: 'FLAC (lossless)',
};

export const MASTERING_NAMES: Record<ExportMastering, string> = {
  raw: 'Unmastered',
  landr: 'Mastered',
  dolby: 'Enhanced',
  both: 'Mastered and enhanced',
};

export const PROJECT_FORMAT_NAMES: Record<ProjectExportFormat, string> = {
  spotifyJson: 'Spotify audio features (JSON)',
  oscMidiConfig: 'OSC / MIDI map',
  touchdesigner: 'TouchDesigner kit',
  resolume: 'Resolume kit',
};

export const PROJECT_FORMAT_HINTS: Record<ProjectExportFormat, string> = {
  spotifyJson: 'Tempo, key, loudness and the audio features, as Spotify names them',
  oscMidiConfig: 'Every OSC address and MIDI message the studio sends, with ranges',
  touchdesigner: 'Beat times, sections and stem levels as tables, plus the OSC map',
  resolume: 'BPM, beat grid and OSC map, with the stems ready to drop as clips',
};

export const EXPORT_WORDS = {
  audioDone: { title: 'Export ready!', type: 'success' },
  audioFailed: { title: 'Export failed', description: 'Failed to export audio files', type: 'error' },
  projectDone: { title: 'Project exported!', type: 'success' },
  projectFailed: { title: 'Export failed', description: 'Failed to export project data', type: 'error' },
} as const;

export const CHOOSE_A_STEM = 'Choose at least one stem to export.';
export const CHOOSE_A_FORMAT = 'Choose at least one format.';

export interface AudioChoice {
  exportType: ExportType;
  format: AudioExportFormat;
  mastering: ExportMastering;
  /** Stem types ticked for a `selected` export. */
  selectedTypes: readonly StemType[];
}

/**
 * Why the audio export cannot be sent, in plain words, or null when it can: a project with whole stems
 * (`projectBlocked` says otherwise), a variant that exists, and for `selected` at least one stem.
 */
export function audioExportBlocker(choice: AudioChoice, projectBlocked: string | null, options: ExportOptions | undefined): string | null {
  if (projectBlocked) return projectBlocked;
  const variant = options?.variants[choice.mastering];
  if (variant && !variant.available) return variant.reason ?? `${MASTERING_NAMES[choice.mastering]} audio is not available for this project yet.`;
  if (choice.exportType === 'selected' && choice.selectedTypes.length === 0) return CHOOSE_A_STEM;
  return null;
}

/** The ids a `selected` export sends, in the mixer's order; the other types send none. */
export function selectedStemIds(choice: AudioChoice, stems: ReadonlyArray<{ id: string; type: StemType }>): string[] {
  if (choice.exportType !== 'selected') return [];
  return stems.filter((stem) => choice.selectedTypes.includes(stem.type)).map((stem) => stem.id);
}

/** What the gateway answers for a failure it has no words for (its cause is in the server's log). */
const GENERIC_SERVER_ERROR = 'Internal server error';

/**
 * A failed export's description: the failure's words, then the server's own reason when it has one for
 * people (a stem that is not the project's, a master to run first, a file that could not be made, an export
 * still running). A 500 without words, a body without a message or a lost connection adds nothing.
 */
export function failureDescription(base: string, error: unknown): string {
  const { status, data } = (error ?? {}) as { status?: unknown; data?: unknown };
  const raw = data && typeof data === 'object' ? (data as { message?: unknown }).message : undefined;
  const message = typeof raw === 'string' ? raw.trim() : '';
  const readable = typeof status === 'number' && message !== '' && message !== GENERIC_SERVER_ERROR && message !== base;
  return readable ? `${base}: ${message}` : base;
}
