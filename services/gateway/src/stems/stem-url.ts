import type { Stem, StemRecord } from '@stemdeck/proto';

/** Where the gateway serves a stem's audio (owner-checked, with range support): its own route, its own url. */
export const stemAudioPath = (stemId: string): string => `/api/stems/${encodeURIComponent(stemId)}/audio`;

/** A stem as the media service stores it, with the url browsers fetch it at. */
export const withStemUrl = (stem: StemRecord): Stem => ({ ...stem, url: stemAudioPath(stem.id) });
