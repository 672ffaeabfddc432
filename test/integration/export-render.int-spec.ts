import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AudioExportFormat, StemType } from '@stemdeck/proto';
import { FfmpegAudioRenderer } from '../../services/export/src/exports/audio/ffmpeg-audio-renderer';
import type { RenderStem } from '../../services/export/src/exports/audio/audio-renderer';
import { storage } from '../support/media';
import { decode, EXPORT_STEM_TYPES, ffprobe, makeStems, mp3HeaderTag, resampleReference, residual, rmsDbfs, weightedSum } from '../support/export-audio';

jest.setTimeout(120_000);

/**
 * The export renderer against the stack's own MinIO: stems stored as objects (24-bit FLAC, one 16-bit WAV), read
 * by ffmpeg over presigned urls, every format written and checked with ffprobe, and the mixes measured against
 * sums of the stems computed here.
 */
const SECONDS = 6;
const TAGS = { title: 'Integration Song', bpm: 96.5, key: 'F# minor' };
const NULL_BOUND_DBFS = -90;

const renderer = new FfmpegAudioRenderer(storage);
const prefix = `test/export-render/${randomUUID()}/`;
const keyOf = (type: StemType) => `${prefix}${type}`;

let dir: string;
let files: Record<StemType, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-render-int-'));
  files = makeStems(dir, { seconds: SECONDS, wav16: ['other'] });
  // Stored under keys without an extension: ffmpeg must read the content, not trust a name.
  await Promise.all(EXPORT_STEM_TYPES.map((type) => storage.putFile(keyOf(type), files[type], type === 'other' ? 'audio/wav' : 'audio/flac')));
});
afterAll(async () => {
  await storage.removePrefix(prefix);
  rmSync(dir, { recursive: true, force: true });
});

const stems = (mixes: Partial<Record<StemType, Partial<RenderStem>>> = {}): RenderStem[] =>
  EXPORT_STEM_TYPES.map((type) => ({ type, objectKey: keyOf(type), volume: 0, muted: false, soloed: false, ...mixes[type] }));

describe('FfmpegAudioRenderer on stored objects (MinIO)', () => {
  const expected: Record<AudioExportFormat, { codec: string; sampleRate: number; bits?: number; rawBits?: number; bitRate?: number }> = {
    'wav-24-48': { codec: 'pcm_s24le', sampleRate: 48_000, bits: 24 },
    'wav-16-44': { codec: 'pcm_s16le', sampleRate: 44_100, bits: 16 },
    'aiff-24-48': { codec: 'pcm_s24be', sampleRate: 48_000, bits: 24 },
    'mp3-320': { codec: 'mp3', sampleRate: 44_100, bitRate: 320_000 },
    flac: { codec: 'flac', sampleRate: 44_100, rawBits: 24 },
  };

  it.each(Object.entries(expected))('the full mix and a stem as %s: codec, rate, depth, channels, bitrate, tags', async (format, want) => {
    const mixPath = join(dir, `mix-${format}`);
    const stemPath = join(dir, `stem-${format}`);
    const progress: number[] = [];
    await renderer.mix(stems({ vocals: { volume: -6 }, bass: { muted: true } }), format as AudioExportFormat, TAGS, mixPath, (f) => progress.push(f));
    await renderer.convert({ objectKey: keyOf('other') }, format as AudioExportFormat, TAGS, stemPath);
    expect(progress.at(-1)).toBe(1);
    for (const path of [mixPath, stemPath]) {
      const probe = ffprobe(path);
      expect(probe).toMatchObject({ codec: want.codec, sampleRate: want.sampleRate, channels: 2 });
      if (want.bits) expect(probe.bitsPerSample).toBe(want.bits);
      if (want.rawBits) expect(probe.bitsPerRawSample).toBe(want.rawBits);
      if (want.bitRate) {
        expect(probe.bitRate).toBe(want.bitRate);
        expect(mp3HeaderTag(readFileSync(path))).toBe('Info');
      }
      expect(probe.durationSeconds).toBeGreaterThanOrEqual(SECONDS - 0.01);
      expect(probe.tags.title).toBe('Integration Song');
      if (format === 'flac') expect([probe.tags.bpm, probe.tags.key]).toEqual(['96.5', 'F# minor']);
      else if (format === 'mp3-320' || format === 'aiff-24-48') expect([probe.tags.tbpm, probe.tags.tkey]).toEqual(['97', 'F# minor']);
      else expect(probe.tags.comment).toBe('BPM 96.5 · Key F# minor');
    }
  });

  it('every stem at 0 dB: the flac mix nulls against the sum of the stems, the wav-24-48 mix against the soxr-resampled sum (≤ −90 dBFS)', async () => {
    await renderer.mix(stems(), 'flac', TAGS, join(dir, 'null.flac'));
    await renderer.mix(stems(), 'wav-24-48', TAGS, join(dir, 'null.wav'));
    const sum = weightedSum(await Promise.all(EXPORT_STEM_TYPES.map(async (type) => ({ audio: await decode(files[type]), gain: 1 }))));
    expect(rmsDbfs(sum)).toBeGreaterThan(-20);
    const atStemRate = residual(await decode(join(dir, 'null.flac')), sum);
    const at48 = residual(await decode(join(dir, 'null.wav')), await resampleReference(sum, 48_000, dir));
    expect(atStemRate.lengths[0]).toBe(atStemRate.lengths[1]);
    expect(atStemRate.peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
    expect(at48.peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
    console.log(`null test: flac residual peak ${atStemRate.peakDbfs.toFixed(1)} dBFS; wav-24-48 residual peak ${at48.peakDbfs.toFixed(1)} dBFS, rms ${at48.rmsDbfs.toFixed(1)} dBFS`);
  });

  it('−6 dB on the vocals and the bass muted: exactly vocals × 10^(−6/20) + drums + other', async () => {
    await renderer.mix(stems({ vocals: { volume: -6 }, bass: { muted: true } }), 'flac', TAGS, join(dir, 'law.flac'));
    const [vocals, drums, other] = await Promise.all([decode(files.vocals), decode(files.drums), decode(files.other)]);
    const expectedMix = weightedSum([
      { audio: vocals, gain: 10 ** (-6 / 20) },
      { audio: drums, gain: 1 },
      { audio: other, gain: 1 },
    ]);
    const diff = residual(await decode(join(dir, 'law.flac')), expectedMix);
    expect(diff.peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
    console.log(`mix law (−6 dB vocals, bass muted): residual peak ${diff.peakDbfs.toFixed(1)} dBFS`);
  });

  it('a stem that is not stored fails the render and leaves no file', async () => {
    const path = join(dir, 'missing.wav');
    await expect(renderer.mix([...stems(), { type: 'other', objectKey: `${prefix}missing`, volume: 0, muted: false, soloed: false }], 'wav-24-48', TAGS, path)).rejects.toThrow();
    expect(() => readFileSync(path)).toThrow();
  });
});
