import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FfmpegStemAudio } from './stem-audio';

/** Object keys are local files here: ffmpeg reads a path as it reads a presigned url. */
const localFiles = { presignedReadUrl: async (key: string) => key };

describe('FfmpegStemAudio (real ffmpeg on local files)', () => {
  let dir: string;
  let stem: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stem-audio-'));
    stem = join(dir, 'vocals.flac');
    // 2 s of a 440 Hz sine (ffmpeg's sine source: amplitude 1/8) in both channels, then 1 s of silence, FLAC at 44.1 kHz.
    execFileSync('ffmpeg', [
      '-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=2', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono:d=1',
      '-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1,pan=stereo|c0=c0|c1=c0', '-c:a', 'flac', '-sample_fmt', 's32', join(dir, 'vocals.flac'),
    ]);
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures the stem per 1/60 s: the sine\'s RMS (amplitude / √2), then silence', async () => {
    const progress: number[] = [];
    const power = await new FfmpegStemAudio(localFiles).framePower(stem, 60, { expectedSeconds: 3, onProgress: (fraction) => progress.push(fraction) });
    expect(power.length).toBe(180);
    const rms = Array.from(power, Math.sqrt);
    // A 1/60 s frame holds 7.33 cycles of 440 Hz, so each frame reads the sine's RMS within a fraction of a percent.
    for (const value of rms.slice(1, 119)) expect(value).toBeCloseTo(0.125 / Math.SQRT2, 2);
    for (const value of rms.slice(125)) expect(value).toBeLessThan(1e-4);
    expect(progress.at(-1)).toBe(1);
  }, 30_000);

  it('writes a 16-bit PCM WAV at the stem\'s rate with its title and the whole length', async () => {
    const out = join(dir, 'Song - vocals.wav');
    await new FfmpegStemAudio(localFiles).writeWav(stem, out, 'Song - vocals');
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', out]).toString());
    expect(probe.format.format_name).toBe('wav');
    expect(probe.format.tags?.title).toBe('Song - vocals');
    expect(probe.streams[0]).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: '44100', channels: 2, bits_per_sample: 16 });
    expect(Number(probe.streams[0].duration)).toBeCloseTo(3, 2);
  }, 30_000);

  it('fails with ffprobe\'s error for a missing object', async () => {
    await expect(new FfmpegStemAudio(localFiles).writeWav(join(dir, 'missing.flac'), join(dir, 'x.wav'), 'x')).rejects.toThrow(/cannot read the stem: .*No such file/);
    await expect(new FfmpegStemAudio(localFiles).framePower(join(dir, 'missing.flac'), 60)).rejects.toThrow();
  }, 30_000);

  describe('over HTTP, as presigned reads from storage: a read cut short or stalled fails, never a shorter envelope or clip', () => {
    let server: Server;
    let base: string;
    /** `/half` announces the whole stem, sends half and closes; `/stall` sends half and then nothing; `/trickle` serves the probe whole, then 64 bytes every 100 ms. */
    beforeAll(async () => {
      const bytes = readFileSync(stem);
      const hits = new Map<string, number>();
      server = createServer((req, res) => {
        const hit = (hits.get(req.url!) ?? 0) + 1;
        hits.set(req.url!, hit);
        res.writeHead(200, { 'Content-Length': bytes.length });
        const half = bytes.subarray(0, bytes.length >> 1);
        if (req.url === '/half') res.write(half, () => setTimeout(() => res.socket?.destroy(), 20));
        else if (req.url === '/stall') res.write(half);
        else if (req.url === '/trickle' && hit > 1) {
          let sent = 0;
          const timer = setInterval(() => res.write(bytes.subarray(sent, (sent += 64))), 100);
          res.on('close', () => clearInterval(timer));
        } else res.end(bytes);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const overHttp = (limits = {}) => new FfmpegStemAudio({ presignedReadUrl: async (key: string) => `${base}/${key}` }, { limits });

    it('reads a whole stem: 3 s, 180 frames', async () => {
      expect((await overHttp().framePower('whole', 60)).length).toBe(180);
    });

    it('a connection that ends half-way fails the envelope and the clip (and leaves no clip)', async () => {
      await expect(overHttp().framePower('half', 60)).rejects.toThrow(/connection to storage ended before the stem was read whole/);
      await expect(overHttp().writeWav('half', join(dir, 'half.wav'), 'half')).rejects.toThrow(/connection to storage ended/);
      expect(existsSync(join(dir, 'half.wav'))).toBe(false);
    });

    it('a stalled read fails after the read timeout', async () => {
      const started = Date.now();
      await expect(overHttp({ readTimeoutSeconds: 1 }).framePower('stall', 60)).rejects.toThrow(/Storage stopped sending the stem: no data for 1 s/);
      await expect(overHttp({ readTimeoutSeconds: 1 }).writeWav('stall', join(dir, 'stall.wav'), 'stall')).rejects.toThrow(/read timed out/);
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(existsSync(join(dir, 'stall.wav'))).toBe(false);
    }, 20_000);

    it('a decode that runs past twice the stem (3 s → 6 s) is killed and says so', async () => {
      const started = Date.now();
      await expect(overHttp({ minRunSeconds: 1 }).framePower('trickle', 60)).rejects.toThrow(/ran past its limit of 6 s and was stopped/);
      expect(Date.now() - started).toBeLessThan(12_000);
    }, 20_000);
  });

  it('a decode or clip shorter than the stem\'s header says fails (ffmpeg 5.1 can end early and exit 0)', async () => {
    // An ffmpeg that ends its output after 1 s and exits 0.
    const cutShort = join(dir, 'ffmpeg-cuts-short');
    writeFileSync(cutShort, '#!/bin/bash\nlast="${@: -1}"\nset -- "${@:1:$#-1}"\nexec ffmpeg "$@" -t 1 "$last"\n', { mode: 0o755 });
    const audio = new FfmpegStemAudio(localFiles, { ffmpeg: cutShort });
    await expect(audio.framePower(stem, 60)).rejects.toThrow(/decoded to 1\.000 s where its header says 3\.000 s/);
    await expect(audio.writeWav(stem, join(dir, 'cut.wav'), 'cut')).rejects.toThrow(/not read whole/);
    expect(existsSync(join(dir, 'cut.wav'))).toBe(false);
  }, 30_000);
});
