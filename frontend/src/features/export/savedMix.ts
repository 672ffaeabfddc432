import type { ExportMastering, ExportType } from '@stemdeck/proto/vocabulary';
import type { MixerStem } from '../project/stems';

/**
 * An export is made from the stems as the server has them, while a mixer change is saved a moment after it
 * is heard (one save per stem on its way at a time, later changes sent behind it). Before an export that
 * takes the mix, the panel reads the saved stems until they carry what the mixer shows, for a short while.
 */

type MixField = 'volume' | 'muted' | 'soloed' | 'version';

/** How often the saved stems are read while they differ, and for how long at most. */
export const SAVED_MIX_POLL_MS = 150;
export const SAVED_MIX_WAIT_MS = 4000;

/** A volume the server stores back may differ in the last bits of its float, never by this much. */
const VOLUME_TOLERANCE_DB = 0.001;

/**
 * What of each stem this export takes from the saved state: a full mix is rendered with every stem's volume,
 * mute, solo and playing version; single stems with their playing version; a master's files with none of it.
 */
export function mixFieldsTaken(exportType: ExportType, mastering: ExportMastering): readonly MixField[] {
  if (mastering === 'landr') return [];
  return exportType === 'full-mix' ? ['volume', 'muted', 'soloed', 'version'] : ['version'];
}

type MixState = Pick<MixerStem, 'id' | 'type' | MixField>;

/** The stems (by type) whose saved state differs from what the mixer shows, in the fields the export takes. */
export function unsavedStems(shown: readonly MixState[], saved: readonly MixState[], fields: readonly MixField[]): string[] {
  return shown
    .filter((stem) => {
      const stored = saved.find((candidate) => candidate.id === stem.id);
      if (!stored) return false; // another engine's stems on the server: nothing of this mix to wait for
      return fields.some((field) => (field === 'volume' ? Math.abs(stem.volume - stored.volume) > VOLUME_TOLERANCE_DB : stem[field] !== stored[field]));
    })
    .map((stem) => stem.type);
}

export interface SavedMixWait {
  /** The saved stems (throws when they cannot be read). */
  read(): Promise<readonly MixState[]>;
  /** What the mixer shows now (a change made while waiting counts too). */
  shown(): readonly MixState[];
  fields: readonly MixField[];
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  pollMs?: number;
  waitMs?: number;
}

/**
 * Reads the saved stems until they carry the shown mix. Answers the stems still unsaved when the wait is over
 * (a save the server refused is not retried, so the export then has the last saved mix); none when they match,
 * when the export takes nothing of the mix, or when the stems cannot be read (the export answers for itself).
 */
export async function waitForSavedMix({ read, shown, fields, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)), now = () => Date.now(), pollMs = SAVED_MIX_POLL_MS, waitMs = SAVED_MIX_WAIT_MS }: SavedMixWait): Promise<string[]> {
  if (fields.length === 0) return [];
  const until = now() + waitMs;
  for (;;) {
    let saved: readonly MixState[];
    try {
      saved = await read();
    } catch {
      return [];
    }
    const unsaved = unsavedStems(shown(), saved, fields);
    if (unsaved.length === 0 || now() + pollMs > until) return unsaved;
    await sleep(pollMs);
  }
}

/** What the panel says when the export went ahead with an older mix than the one heard. */
export const unsavedMixNote = (types: readonly string[]) =>
  `The latest mixer change to ${types.join(', ')} was not saved in time, so this export has the last saved mix.`;
