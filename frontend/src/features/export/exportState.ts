import type { VariantAvailability } from '@stemdeck/proto';
import type { AudioExportFormat, ExportMastering, ExportType, ProjectExportFormat, StemType } from '@stemdeck/proto/vocabulary';
import type { ExportOptions, ExportRecord } from './exportApi';

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

/**
 * The place in the user's line of the export a panel is waiting for: the project's newest export still in the
 * making (the one its request just asked for), when it waits for the user's other exports; null otherwise.
 */
export function exportPlace(running: readonly ExportRecord[] | undefined): number | null {
  const newest = running?.reduce<ExportRecord | undefined>((latest, record) => (!latest || record.createdAt >= latest.createdAt ? record : latest), undefined);
  return newest?.queuePosition ?? null;
}

export const CHOOSE_A_STEM = 'Choose at least one stem to export.';
export const CHOOSE_A_FORMAT = 'Choose at least one format.';

export interface AudioChoice {
  exportType: ExportType;
  format: AudioExportFormat;
  mastering: ExportMastering;
  /** Stem types ticked for a `selected` export. */
  selectedTypes: readonly StemType[];
}

/** Whether each version can be exported now, and if not why, in plain words. */
export type VariantChoices = Record<ExportMastering, VariantAvailability>;

export const NEEDS_STEM_MASTER = 'Needs a per-stem master — run AI Mastering with Per stem first';
export const NEEDS_STEM_MASTER_OF_EACH = 'Needs a per-stem master of every chosen stem — run AI Mastering with Per stem first';
export const NEEDS_ENHANCED_STEM = 'Needs an enhanced stem — run Enhance stems in AI Mastering first';
export const NEEDS_ENHANCED_EACH = 'Needs an enhanced version of every chosen stem — run Enhance stems in AI Mastering first';

const AVAILABLE: VariantAvailability = { available: true, reason: null };
const unavailable = (reason: string): VariantAvailability => ({ available: false, reason });

/** The project's stems a choice exports: every one for a full mix or individual stems, the ticked ones (mixer order) for selected. */
export function chosenStems<S extends { id: string; type: StemType }>(choice: Pick<AudioChoice, 'exportType' | 'selectedTypes'>, stems: readonly S[]): S[] {
  return choice.exportType === 'selected' ? stems.filter((stem) => choice.selectedTypes.includes(stem.type)) : [...stems];
}

/**
 * Which versions this export type (and, for selected, these stems) can take, from the server's options.
 * A full mix takes any master and any enhanced stem, so the server's answer stands. Stems on their own take a
 * per-stem master's stems and enhanced stems: individual needs at least one of each kind (it exports the stems
 * that have one), selected needs one for every ticked stem (with none ticked yet, at least one to tick).
 * Before stems exist every version is what the server says (not ready). Undefined while the options are not read.
 */
export function variantChoices(options: ExportOptions | undefined, exportType: ExportType, chosen: ReadonlyArray<{ id: string; type: StemType }>): VariantChoices | undefined {
  if (!options) return undefined;
  if (exportType === 'full-mix' || !options.variants.raw.available) return options.variants;
  const each = exportType === 'selected' && chosen.length > 0;
  const mastered = each ? chosen.every((stem) => options.masteredStemTypes.includes(stem.type)) : options.masteredStemTypes.length > 0;
  const enhanced = each ? chosen.every((stem) => options.enhancedStemIds.includes(stem.id)) : options.enhancedStemIds.length > 0;
  const landr = mastered ? AVAILABLE : unavailable(each ? NEEDS_STEM_MASTER_OF_EACH : NEEDS_STEM_MASTER);
  const dolby = enhanced ? AVAILABLE : unavailable(each ? NEEDS_ENHANCED_EACH : NEEDS_ENHANCED_STEM);
  const missing = [landr.reason, dolby.reason].filter((reason): reason is string => reason !== null);
  return { raw: options.variants.raw, landr, dolby, both: missing.length > 0 ? unavailable(missing.join('; ')) : AVAILABLE };
}

/** The words saying the chosen version was replaced by the unmastered one because this choice cannot take it. */
export const fellBackToRaw = (mastering: ExportMastering) => `${MASTERING_NAMES[mastering]} is not available for this choice, so ${MASTERING_NAMES.raw} is selected instead.`;

/**
 * Why the audio export cannot be sent, in plain words, or null when it can: a project with whole stems
 * (`projectBlocked` says otherwise), a variant this choice can take, and for `selected` at least one stem.
 */
export function audioExportBlocker(choice: AudioChoice, projectBlocked: string | null, variants: VariantChoices | undefined): string | null {
  if (projectBlocked) return projectBlocked;
  const variant = variants?.[choice.mastering];
  if (variant && !variant.available) return variant.reason ?? `${MASTERING_NAMES[choice.mastering]} audio is not available for this project yet.`;
  if (choice.exportType === 'selected' && choice.selectedTypes.length === 0) return CHOOSE_A_STEM;
  return null;
}

/** The ids a `selected` export sends, in the mixer's order; the other types send none. */
export function selectedStemIds(choice: AudioChoice, stems: ReadonlyArray<{ id: string; type: StemType }>): string[] {
  if (choice.exportType !== 'selected') return [];
  return chosenStems(choice, stems).map((stem) => stem.id);
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
