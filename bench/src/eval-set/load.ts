import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeWav, STEM_TYPES, type StemType, type StereoAudio } from '@stemdeck/audio';
import { DEFAULT_EVAL_SET_DIR, INDEX_FILE, META_FILE, MIXTURE_FILE, stemFile, type EvalSetIndex, type EvalTrackMeta } from './meta';

export type { EvalTrackMeta, EvalSetIndex } from './meta';

export interface EvalTrack extends EvalTrackMeta {
  /** Absolute directory holding the track's WAVs and meta.json. */
  dir: string;
}

export interface EvalTrackAudio {
  mixture: StereoAudio;
  stems: Record<StemType, StereoAudio>;
}

/**
 * Tracks of a generated eval set, in index order. The default is the repository's
 * .data/eval-set; generate it with `npm run bench:eval-set` (add `-- --quick` for the small set,
 * which lives in .data/eval-set-quick).
 */
export function loadEvalSet(dir: string = DEFAULT_EVAL_SET_DIR): EvalTrack[] {
  const root = path.resolve(dir);
  let index: EvalSetIndex;
  try {
    index = JSON.parse(readFileSync(path.join(root, INDEX_FILE), 'utf8')) as EvalSetIndex;
  } catch (err) {
    throw new Error(`No eval set at ${root} (run \`npm run bench:eval-set\`): ${(err as Error).message}`);
  }
  return index.tracks.map(({ id }) => {
    const trackDir = path.join(root, id);
    const meta = JSON.parse(readFileSync(path.join(trackDir, META_FILE), 'utf8')) as EvalTrackMeta;
    return { ...meta, dir: trackDir };
  });
}

/** Decodes the mixture and the four ground-truth stems (float32 stereo, equal lengths). */
export function loadTrackAudio(track: EvalTrack): EvalTrackAudio {
  const read = (file: string) => decodeWav(readFileSync(path.join(track.dir, file)));
  const stems = {} as Record<StemType, StereoAudio>;
  for (const stem of STEM_TYPES) stems[stem] = read(stemFile(stem));
  return { mixture: read(MIXTURE_FILE), stems };
}
