import type { Stem, StemRecord } from '@stemdeck/proto';

/** Where the gateway serves a stem's audio (owner-checked, with range support): its own route, its own url. */
export const stemAudioPath = (stemId: string): string => `/api/stems/${encodeURIComponent(stemId)}/audio`;

/**
 * A stem as the media service stores it, with the url browsers fetch the version it plays at. The enhanced
 * version's url names the version and the job that made it, so no browser or decoded-audio cache keyed by
 * url can hand out the original, or an older job's result, for it (the route ignores `job`).
 */
export const withStemUrl = (stem: StemRecord): Stem => ({
  ...stem,
  url:
    stem.version === 'enhanced' && stem.enhanced
      ? `${stemAudioPath(stem.id)}?version=enhanced&job=${encodeURIComponent(stem.enhanced.jobId)}`
      : stemAudioPath(stem.id),
});
