import type { SpotifyFeatures } from '@stemdeck/proto';
import { spotifyAudioFeatures } from './spotify-audio-features';

const features: SpotifyFeatures = {
  danceability: 0.71,
  energy: 0.64,
  valence: 0.42,
  acousticness: 0.08,
  instrumentalness: 0.02,
  liveness: 0.11,
  speechiness: 0.05,
  loudness: -8.3,
  tempo: 123.0456,
  key: 9,
  mode: 0,
  time_signature: 4,
  duration_ms: 215_480,
};

/** Spotify's audio-features object, field by field. */
const SPOTIFY_FIELDS = [
  'acousticness', 'analysis_url', 'danceability', 'duration_ms', 'energy', 'id', 'instrumentalness', 'key', 'liveness',
  'loudness', 'mode', 'speechiness', 'tempo', 'time_signature', 'track_href', 'type', 'uri', 'valence',
];

describe('analysis.json as a Spotify audio-features object', () => {
  it('has exactly Spotify\'s 18 fields with their types, and our analysis\'s values', () => {
    const object = spotifyAudioFeatures('proj-1', features);
    expect(Object.keys(object).sort()).toEqual([...SPOTIFY_FIELDS].sort());
    expect(object).toEqual({
      ...features,
      tempo: 123.046,
      type: 'audio_features',
      id: 'proj-1',
      uri: 'stemdeck:project:proj-1',
      track_href: '/api/projects/proj-1',
      analysis_url: '/api/projects/proj-1/analysis',
    });
    for (const field of ['danceability', 'energy', 'valence', 'acousticness', 'instrumentalness', 'liveness', 'speechiness', 'loudness', 'tempo']) {
      expect(typeof object[field as keyof typeof object]).toBe('number');
    }
    expect(Number.isInteger(object.duration_ms) && Number.isInteger(object.key) && Number.isInteger(object.time_signature)).toBe(true);
  });

  it('never claims a Spotify track: no spotify: uri, no Spotify url', () => {
    const text = JSON.stringify(spotifyAudioFeatures('proj-1', features));
    expect(text).not.toMatch(/spotify/i);
  });

  it('keeps every value inside Spotify\'s ranges', () => {
    const wild = spotifyAudioFeatures('p', { ...features, danceability: 1.3, energy: -0.2, valence: Number.NaN, key: 14, mode: 1, time_signature: 2, duration_ms: 1000.6 });
    expect(wild).toMatchObject({ danceability: 1, energy: 0, valence: 0, key: -1, mode: 1, time_signature: 3, duration_ms: 1001 });
    expect(spotifyAudioFeatures('p', { ...features, key: -1, time_signature: 9 })).toMatchObject({ key: -1, time_signature: 7 });
  });

  it('escapes the project id in its paths', () => {
    expect(spotifyAudioFeatures('a/b c', features).track_href).toBe('/api/projects/a%2Fb%20c');
  });
});
