import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudioStream, FlacStreamEncoder } from './pcm-stream';

jest.setTimeout(30_000);

describe('FlacStreamEncoder and decodeAudioStream (real ffmpeg)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stemdeck-pcm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips stereo samples through 24-bit FLAC, decoded back in chunks of the asked size', async () => {
    const frames = 44100 + 12345;
    const left = new Float32Array(frames).map((_, i) => 0.5 * Math.sin(i / 7));
    const right = new Float32Array(frames).map((_, i) => -0.25 * Math.cos(i / 3));
    const encoder = new FlacStreamEncoder(44100);
    const parts: Buffer[] = [];
    encoder.output.on('data', (chunk: Buffer) => parts.push(chunk));
    for (let from = 0; from < frames; from += 10_000) await encoder.write(left.subarray(from, from + 10_000), right.subarray(from, from + 10_000));
    await encoder.end();
    const path = join(dir, 'stem.flac');
    writeFileSync(path, Buffer.concat(parts));
    expect(Buffer.concat(parts).subarray(0, 4).toString('latin1')).toBe('fLaC');

    const chunks = [];
    for await (const chunk of decodeAudioStream(path, { chunkFrames: 4096 })) chunks.push(chunk);
    expect(chunks.slice(0, -1).every((c) => c.left.length === 4096)).toBe(true);
    expect(chunks.reduce((n, c) => n + c.left.length, 0)).toBe(frames);
    let worst = 0;
    let at = 0;
    for (const chunk of chunks) {
      for (let i = 0; i < chunk.left.length; i++, at++) {
        worst = Math.max(worst, Math.abs(chunk.left[i] - left[at]), Math.abs(chunk.right[i] - right[at]));
      }
    }
    // 24-bit quantisation: one step is 2^-23.
    expect(worst).toBeLessThan(2 ** -22);
  });

  it('reports a stopped encoder as failed, and a decode of something that is not audio as an error', async () => {
    const encoder = new FlacStreamEncoder(44100);
    encoder.output.resume();
    await encoder.write(new Float32Array(1000), new Float32Array(1000));
    encoder.abort();
    await expect(encoder.done).rejects.toThrow(/ffmpeg exited/);

    const path = join(dir, 'not-audio.txt');
    writeFileSync(path, 'hello');
    const decode = async () => {
      for await (const _ of decodeAudioStream(path)) void _;
    };
    await expect(decode()).rejects.toThrow();
  });
});
