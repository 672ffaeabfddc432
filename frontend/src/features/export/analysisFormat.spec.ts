import { ABSENT, analysisRows, keyName } from './analysisFormat';
import type { ProjectAnalysis } from './exportApi';

const ANALYSIS: ProjectAnalysis = {
  loudnessLufs: -9.27,
  spotifyFeatures: {
    danceability: 0.612,
    energy: 0.9,
    valence: 0.307,
    acousticness: 0.0123,
    instrumentalness: 1,
    liveness: 0.11,
    speechiness: 0.047,
    loudness: -9.3,
    tempo: 97.96,
    key: 9,
    mode: 0,
    time_signature: 3,
    duration_ms: 40_000,
  },
};

const valueOf = (rows: ReturnType<typeof analysisRows>, id: string) => rows.find((row) => row.id === id)?.value;

describe('the analysis view figures', () => {
  it('names keys from pitch class and mode, with sharps', () => {
    expect(keyName(6, 0)).toBe('F♯ minor');
    expect(keyName(0, 1)).toBe('C major');
    expect(keyName(10, 1)).toBe('A♯ major');
    expect(keyName(11, 0)).toBe('B minor');
  });

  it('reads a key the detector could not settle (−1), out of range or missing as a dash; a missing mode leaves the note alone', () => {
    for (const key of [-1, 12, 2.5, Number.NaN, null, undefined]) expect(keyName(key, 1)).toBe(ABSENT);
    expect(keyName(2, null)).toBe('D');
  });

  it('shows the stored analysis: tempo, key, loudness, metre and every 0–1 feature to two decimals', () => {
    const rows = analysisRows(ANALYSIS);
    expect(rows.map((row) => row.label)).toEqual([
      'Tempo',
      'Key',
      'Loudness',
      'Time signature',
      'Danceability',
      'Energy',
      'Valence',
      'Acousticness',
      'Instrumentalness',
      'Liveness',
      'Speechiness',
    ]);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.value]))).toEqual({
      tempo: '98.0 BPM',
      key: 'A minor',
      loudness: '-9.3 LUFS',
      'time-signature': '3/4',
      danceability: '0.61',
      energy: '0.90',
      valence: '0.31',
      acousticness: '0.01',
      instrumentalness: '1.00',
      liveness: '0.11',
      speechiness: '0.05',
    });
  });

  it('shows a dash for every value when there is no analysis — never sample figures', () => {
    for (const missing of [null, undefined]) {
      const rows = analysisRows(missing);
      expect(rows).toHaveLength(11);
      expect(rows.every((row) => row.value === ABSENT)).toBe(true);
    }
    const text = analysisRows(null)
      .map((row) => row.value)
      .join(' ');
    for (const sample of ['125.4', 'F# minor', 'F♯ minor', '0.73', '0.84', '0.46']) expect(text).not.toContain(sample);
  });

  it('dashes only the values that are not numbers, keeping the rest', () => {
    const partial = { ...ANALYSIS, loudnessLufs: Number.NaN, spotifyFeatures: { ...ANALYSIS.spotifyFeatures, key: -1, energy: Number.POSITIVE_INFINITY, time_signature: 0 } };
    const rows = analysisRows(partial);
    expect(valueOf(rows, 'loudness')).toBe(ABSENT);
    expect(valueOf(rows, 'key')).toBe(ABSENT);
    expect(valueOf(rows, 'energy')).toBe(ABSENT);
    expect(valueOf(rows, 'time-signature')).toBe(ABSENT);
    expect(valueOf(rows, 'tempo')).toBe('98.0 BPM');
    expect(valueOf(rows, 'valence')).toBe('0.31');
  });
});
