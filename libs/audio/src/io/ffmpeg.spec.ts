import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudio, PlanarCollector, probeMedia } from './ffmpeg';
import { encodeWav } from './wav';

jest.setTimeout(30_000);

describe('decodeAudio (real ffmpeg)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stemdeck-decode-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Float WAV, so the decode must give back every sample exactly; an odd length ends mid pipe chunk.
  const frames = 3 * 44100 + 777;
  const left = new Float32Array(frames).map((_, i) => 0.5 * Math.sin(i / 7));
  const right = new Float32Array(frames).map((_, i) => -0.25 * Math.cos(i / 3) + (i % 5) * 1e-3);
  const stereoPath = join(dir, 'stereo.wav');
  writeFileSync(stereoPath, encodeWav({ sampleRate: 44100, left, right }, 32));

  const kind = (buffer: ArrayBufferLike) => Object.prototype.toString.call(buffer);
  const expectSamples = (actual: Float32Array, expected: Float32Array) => {
    expect(actual.length).toBe(expected.length);
    let differing = 0;
    for (let i = 0; i < expected.length; i++) if (actual[i] !== expected[i]) differing++;
    expect(differing).toBe(0);
  };

  it('splits the channels exactly, on plain or shared memory', async () => {
    const plain = await decodeAudio(stereoPath);
    expect(plain.sampleRate).toBe(44100);
    expectSamples(plain.left, left);
    expectSamples(plain.right, right);
    expect(kind(plain.left.buffer)).toBe('[object ArrayBuffer]');

    const shared = await decodeAudio(stereoPath, { shared: true });
    expectSamples(shared.left, left);
    expectSamples(shared.right, right);
    expect(kind(shared.left.buffer)).toBe('[object SharedArrayBuffer]');
    expect(kind(shared.right.buffer)).toBe('[object SharedArrayBuffer]');
  });

  it('gets the length right whatever duration the probe guessed (too short grows, far too long is trimmed)', async () => {
    const probe = await probeMedia(stereoPath);
    for (const durationSeconds of [0, 0.5, 2.9, 60]) {
      const audio = await decodeAudio(stereoPath, { probe: { ...probe, durationSeconds } });
      expectSamples(audio.left, left);
      expectSamples(audio.right, right);
      // A grossly wrong guess does not leave a minute of unused memory behind the samples.
      expect(audio.left.buffer.byteLength).toBeLessThan(4 * (frames + 2 * 44100));
    }
  });

  it('duplicates mono into two separate channels', async () => {
    const path = join(dir, 'mono.wav');
    const mono = left.subarray(0, 10_001);
    // encodeWav writes stereo; ffmpeg makes the mono file from it (first channel only).
    writeFileSync(join(dir, 'two.wav'), encodeWav({ sampleRate: 44100, left: mono, right: mono }, 32));
    const { spawnSync } = await import('node:child_process');
    expect(spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'two.wav'), '-af', 'pan=mono|c0=c0', '-c:a', 'pcm_f32le', path]).status).toBe(0);
    const audio = await decodeAudio(path);
    expectSamples(audio.left, mono);
    expectSamples(audio.right, mono);
    expect(audio.right).not.toBe(audio.left);
    audio.right[0] = 42;
    expect(audio.left[0]).not.toBe(42);
  });

  it('splits pipe chunks of any size and alignment, frames cut anywhere across them', () => {
    const interleaved = new Float32Array(2 * 5000).map((_, i) => (i % 2 ? -1 : 1) * (i + 0.5));
    const bytes = Buffer.from(interleaved.buffer);
    for (const sizes of [[1], [3, 5, 7], [8], [13, 4096, 1], [65_536 + 3]]) {
      const collector = new PlanarCollector(2, 100, false);
      // Every chunk starts at an odd offset of its own buffer, as a Buffer.concat slice may.
      for (let at = 0, k = 0; at < bytes.length; k++) {
        const size = Math.min(sizes[k % sizes.length], bytes.length - at);
        const chunk = Buffer.alloc(size + 1).subarray(1);
        bytes.copy(chunk, 0, at, at + size);
        collector.push(chunk);
        at += size;
      }
      const { left, right } = collector.finish();
      expect(left.length).toBe(5000);
      expect(Array.from(left.subarray(0, 3))).toEqual([0.5, 2.5, 4.5]);
      expect(Array.from(right.subarray(4997))).toEqual([-9995.5, -9997.5, -9999.5]);
      expect(left.every((x, i) => x === 2 * i + 0.5) && right.every((x, i) => x === -(2 * i + 1.5))).toBe(true);
    }
  });

  it('fails with the tool error for something that is not audio', async () => {
    const path = join(dir, 'not-audio.txt');
    writeFileSync(path, 'hello');
    await expect(decodeAudio(path)).rejects.toThrow();
  });
});
