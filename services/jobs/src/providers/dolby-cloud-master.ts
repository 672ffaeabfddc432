import type { MasteringStyle } from '@stemdeck/proto';
import type { CloudMaster } from './cloud-mastering.provider';
import type { DolbyMediaClient } from './dolby-media.client';

/*
 * Our style/intensity as /media/master output settings
 * (https://docs.dolby.io/media-apis/reference/media-music-mastering-post: master.dynamic_eq.preset, a letter
 * naming one of Dolby's mastering profiles, and master.loudness.target_level in LUFS).
 * The style → preset choice is OURS (an assumption to tune by ear against Dolby's profile descriptions);
 * the loudness targets are the Light/Medium/Heavy −16/−14/−11 LUFS.
 */
export const DOLBY_PRESETS: Record<MasteringStyle, string> = { balanced: 'A', warm: 'C', punchy: 'B', open: 'D', smooth: 'E' };
const TARGET_LUFS = { 1: -16, 2: -14, 3: -11 } as const;

export function dolbyMasterSettings(style: MasteringStyle, intensity: 1 | 2 | 3) {
  return { dynamic_eq: { preset: DOLBY_PRESETS[style] }, loudness: { target_level: TARGET_LUFS[intensity] } };
}

/** The Dolby client as CloudMasteringProvider's CloudMaster. */
export function dolbyCloudMaster(client: DolbyMediaClient): CloudMaster {
  return {
    master: ({ style, intensity, ...rest }) => client.master({ ...rest, master: dolbyMasterSettings(style, intensity) }),
  };
}
