import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFlac24 } from './flac';

describe('encodeFlac24', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stemdeck-flac-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** ffmpeg's decode of the file as 32-bit integers (24-bit samples in the top bits), interleaved. */
  const save = (bytes: Buffer): string => {
    const path = join(dir, `clip-${Math.random().toString(36).slice(2)}.flac`);
    writeFileSync(path, bytes);
    return path;
  };
  const decode = (bytes: Buffer): Int32Array => {
    const path = save(bytes);
    const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 's32le', '-acodec', 'pcm_s32le', '-'], { maxBuffer: 1 << 28 });
    return new Int32Array(raw.buffer, raw.byteOffset, raw.length / 4);
  };

  it.each([
    ['a tone with noise, several blocks and a short last one', 44100 * 2 + 777],
    ['a single frame', 1],
    ['exactly one block', 4096],
  ])('is lossless at 24 bits: %s', (_what, frames) => {
    let seed = 7;
    const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.01;
    const left = new Float32Array(frames).map((_, i) => 0.6 * Math.sin(i / 11) + noise());
    const right = new Float32Array(frames).map((_, i) => (i % 300 < 5 ? 0.99 : -0.4 * Math.cos(i / 5)) + noise());
    const flac = encodeFlac24({ sampleRate: 44100, left, right });
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', save(flac)]).toString(),
    ) as { streams: Array<{ codec_name: string; bits_per_raw_sample: string; sample_rate: string; channels: number; duration_ts: number }> };
    expect(probe.streams[0]).toMatchObject({ codec_name: 'flac', bits_per_raw_sample: '24', sample_rate: '44100', channels: 2 });
    const decoded = decode(flac);
    expect(decoded.length).toBe(2 * frames);
    const int24 = (x: number) => Math.max(-8388608, Math.min(8388607, Math.round(x * 8388608)));
    for (let i = 0; i < frames; i++) {
      if (decoded[2 * i] >> 8 !== int24(left[i]) || decoded[2 * i + 1] >> 8 !== int24(right[i])) {
        throw new Error(`frame ${i}: decoded ${decoded[2 * i] >> 8}/${decoded[2 * i + 1] >> 8}, expected ${int24(left[i])}/${int24(right[i])}`);
      }
    }
    // Compressed: smaller than the raw 24-bit samples.
    if (frames > 4096) expect(flac.length).toBeLessThan(frames * 6);
  });
});
