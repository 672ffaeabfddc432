import type { SpotifyFeatures } from '@stemdeck/proto';

/**
 * analysis.json: the analysis as a Spotify Web API audio-features object — the same 18 fields, types and
 * ranges, so tools written for Spotify's object read it unchanged. The values are Stemdeck's own analysis
 * of this recording (media's features), not Spotify's.
 *
 * The four fields that point into Spotify's catalogue are answered honestly for a song that is not on
 * Spotify: `id` is the Stemdeck project id, `uri` a URI of Stemdeck's own scheme (`stemdeck:project:<id>`,
 * never a fake `spotify:track:`), `track_href` and `analysis_url` the paths of the project and its analysis
 * on the Stemdeck server that made the file (read there by the signed-in owner).
 */
export interface SpotifyAudioFeaturesObject {
  acousticness: number;
  analysis_url: string;
  danceability: number;
  duration_ms: number;
  energy: number;
  id: string;
  instrumentalness: number;
  /** Pitch class 0 = C … 11 = B; −1 when no key was detected. */
  key: number;
  liveness: number;
  /** Overall loudness in dB (Spotify: typically −60…0). */
  loudness: number;
  /** 1 major, 0 minor. */
  mode: 0 | 1;
  speechiness: number;
  tempo: number;
  /** Beats per bar, 3…7 (3/4 … 7/4). */
  time_signature: number;
  track_href: string;
  type: 'audio_features';
  uri: string;
  valence: number;
}

const unit = (value: number): number => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

export function spotifyAudioFeatures(projectId: string, features: SpotifyFeatures): SpotifyAudioFeaturesObject {
  const key = Number.isInteger(features.key) && features.key >= 0 && features.key <= 11 ? features.key : -1;
  return {
    acousticness: unit(features.acousticness),
    analysis_url: `/api/projects/${encodeURIComponent(projectId)}/analysis`,
    danceability: unit(features.danceability),
    duration_ms: Math.max(0, Math.round(features.duration_ms)),
    energy: unit(features.energy),
    id: projectId,
    instrumentalness: unit(features.instrumentalness),
    key,
    liveness: unit(features.liveness),
    loudness: features.loudness,
    mode: features.mode === 1 ? 1 : 0,
    speechiness: unit(features.speechiness),
    tempo: Math.max(0, Math.round(features.tempo * 1000) / 1000),
    // Spotify's range: 3 (3/4) to 7 (7/4).
    time_signature: Math.min(7, Math.max(3, Math.round(features.time_signature))),
    track_href: `/api/projects/${encodeURIComponent(projectId)}`,
    type: 'audio_features',
    uri: `stemdeck:project:${projectId}`,
    valence: unit(features.valence),
  };
}
