import { StemType, type AudioExportBody, type ExportMastering, type ExportOptions, type StemRecord, type StemVersion, type VariantAvailability } from '@stemdeck/proto';
import { FORMAT_EXTENSIONS } from './audio/audio-renderer';
import { ExportRefused } from './export-refused';
import { audioFileName, zipFileName, type VariantName } from './file-names';
import type { MasteringResult } from './exports.ports';

export const STEMS_NOT_READY = 'Stems are not ready yet';
export const NO_MASTER = 'No mastered mix yet — run AI Mastering first';
export const NO_MASTERED_STEMS = 'No mastered stems yet — run AI Mastering with Per stem first';
export const NO_ENHANCED_STEMS = 'No enhanced stems yet — run Enhance stems in AI Mastering first';
export const NOT_A_STEM = 'Not a stem of this project';
export const notInStemMaster = (type: string) => `The latest per-stem master has no ${type} — run AI Mastering with Per stem while ${type} plays`;
export const notEnhanced = (type: string) => `The ${type} stem has no enhanced version yet — run Enhance stems on it first`;

/** What an export is planned from: the song's file-safe name, the project's active stems, its completed masters (newest first). */
export interface ExportState {
  song: string;
  stems: StemRecord[];
  masters: MasteringResult[];
}

/** Where a file's audio comes from: a stem's version (absent: the one the mixer plays) or a mastering job's output. */
export type SourceRef = { kind: 'stem'; stem: StemRecord; version?: StemVersion } | { kind: 'master'; jobId: string; output: string };

/** One file of the plan: a source converted, or the stems (each at a version) mixed as the mixer has them. */
export type PlannedRef = { name: string; kind: 'convert'; source: SourceRef } | { name: string; kind: 'mix'; stems: Array<{ stem: StemRecord; version?: StemVersion }> };

export interface AudioPlan {
  /** The download's name: the one file's, or the zip's. */
  filename: string;
  files: PlannedRef[];
}

const VARIANTS: Record<ExportMastering, VariantName[]> = { raw: ['raw'], landr: ['mastered'], dolby: ['enhanced'], both: ['mastered', 'enhanced'] };
const ZIP_WHAT = { 'full-mix': 'full mix', individual: 'stems', selected: 'selected stems' } as const;
const FULL_MIX = 'full mix';
/** A master's full-mix output; per-stem and stem-groups masters have their sum instead. */
const MASTER_OUTPUTS = ['master.flac', 'mix.flac'];
const stemOutput = (type: string) => `${type}.flac`;

/** The newest master that mastered stems on their own (its outputs name stem types). */
export const latestStemMaster = (masters: readonly MasteringResult[]): MasteringResult | undefined =>
  masters.find((master) => StemType.options.some((type) => master.outputs.includes(stemOutput(type))));

/** The stem types a per-stem master covers (the stems that sounded when it was made). */
const masteredTypes = (master: MasteringResult | undefined): StemType[] => StemType.options.filter((type) => master?.outputs.includes(stemOutput(type)));

/** The stems a `selected` export names, each once, in the order asked; a listed id that is not this project's stem is a 400 naming it. */
function selectedStems(stems: readonly StemRecord[], ids: readonly string[]): StemRecord[] {
  const chosen: StemRecord[] = [];
  ids.forEach((id, index) => {
    const stem = stems.find((candidate) => candidate.id === id);
    if (!stem) throw new ExportRefused(400, `stems.${index}: ${NOT_A_STEM}`);
    if (!chosen.includes(stem)) chosen.push(stem);
  });
  return chosen;
}

/** The files of one variant, or the words saying what must be run first. */
function variantFiles(state: ExportState, body: AudioExportBody, variant: VariantName, chosen: StemRecord[]): PlannedRef[] | string {
  const extension = FORMAT_EXTENSIONS[body.format];
  const name = (part: string) => audioFileName(state.song, part, variant, extension);
  const stemFile = (stem: StemRecord, source: SourceRef): PlannedRef => ({ name: name(stem.type), kind: 'convert', source });
  if (variant === 'raw') {
    if (body.exportType === 'full-mix') return [{ name: name(FULL_MIX), kind: 'mix', stems: state.stems.map((stem) => ({ stem })) }];
    return chosen.map((stem) => stemFile(stem, { kind: 'stem', stem }));
  }
  if (variant === 'mastered') {
    if (body.exportType === 'full-mix') {
      const latest = state.masters[0];
      const output = latest && MASTER_OUTPUTS.find((candidate) => latest.outputs.includes(candidate));
      if (!latest || !output) return NO_MASTER;
      return [{ name: name(FULL_MIX), kind: 'convert', source: { kind: 'master', jobId: latest.jobId, output } }];
    }
    const master = latestStemMaster(state.masters);
    if (!master) return NO_MASTERED_STEMS;
    const covered = masteredTypes(master);
    const stems = body.exportType === 'individual' ? chosen.filter((stem) => covered.includes(stem.type)) : chosen;
    const missing = stems.find((stem) => !covered.includes(stem.type));
    if (missing) return notInStemMaster(missing.type);
    if (stems.length === 0) return NO_MASTERED_STEMS;
    return stems.map((stem) => stemFile(stem, { kind: 'master', jobId: master.jobId, output: stemOutput(stem.type) }));
  }
  if (!state.stems.some((stem) => stem.enhanced)) return NO_ENHANCED_STEMS;
  if (body.exportType === 'full-mix') {
    // The mix with every enhanced version there is, the originals elsewhere.
    return [{ name: name(FULL_MIX), kind: 'mix', stems: state.stems.map((stem) => ({ stem, version: stem.enhanced ? 'enhanced' : 'original' })) }];
  }
  const stems = body.exportType === 'individual' ? chosen.filter((stem) => stem.enhanced) : chosen;
  const missing = stems.find((stem) => !stem.enhanced);
  if (missing) return notEnhanced(missing.type);
  return stems.map((stem) => stemFile(stem, { kind: 'stem', stem, version: 'enhanced' }));
}

/**
 * The files an audio export writes, decided from the project's state when it is asked for, or an
 * ExportRefused: 409 before stems exist or when the asked-for result does not exist yet (saying what to run
 * first; `both` names every missing one), 400 naming a listed stem that is not this project's.
 * raw: what the mixer plays; landr: the latest completed master (its full mix, or the latest per-stem
 * master's stems); dolby: the enhanced versions (a full mix takes them where they exist); both: landr and dolby.
 * One file is downloaded as itself, several as one zip.
 */
export function planAudioExport(state: ExportState, body: AudioExportBody): AudioPlan {
  if (state.stems.length === 0) throw new ExportRefused(409, STEMS_NOT_READY);
  const chosen = body.exportType === 'selected' ? selectedStems(state.stems, body.stems) : state.stems;
  const variants = VARIANTS[body.mastering];
  const planned = variants.map((variant) => variantFiles(state, body, variant, chosen));
  const refusals = planned.filter((files): files is string => typeof files === 'string');
  if (refusals.length > 0) throw new ExportRefused(409, refusals.join('; '));
  const files = planned.flat() as PlannedRef[];
  const filename = files.length === 1 ? files[0]!.name : zipFileName(state.song, ZIP_WHAT[body.exportType], variants);
  return { filename, files };
}

const available: VariantAvailability = { available: true, reason: null };
const unavailable = (reason: string): VariantAvailability => ({ available: false, reason });

/**
 * Which variants the export panel can offer now, with the words saying what to run first for the others:
 * landr once a master completed (its stems: `masteredStemTypes`), dolby once a stem has an enhanced version
 * (`enhancedStemIds`), both when both are there. Nothing before the stems exist.
 */
export function exportOptions(projectId: string, state: Omit<ExportState, 'song'>): ExportOptions {
  if (state.stems.length === 0) {
    const none = unavailable(STEMS_NOT_READY);
    return { projectId, variants: { raw: none, landr: none, dolby: none, both: none }, enhancedStemIds: [], masteredStemTypes: [] };
  }
  const enhancedStemIds = state.stems.filter((stem) => stem.enhanced).map((stem) => stem.id);
  const landr = state.masters.length > 0 ? available : unavailable(NO_MASTER);
  const dolby = enhancedStemIds.length > 0 ? available : unavailable(NO_ENHANCED_STEMS);
  const missing = [landr.reason, dolby.reason].filter((reason): reason is string => reason !== null);
  return {
    projectId,
    variants: { raw: available, landr, dolby, both: missing.length > 0 ? unavailable(missing.join('; ')) : available },
    enhancedStemIds,
    masteredStemTypes: masteredTypes(latestStemMaster(state.masters)),
  };
}
