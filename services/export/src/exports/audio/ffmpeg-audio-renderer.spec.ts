import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AudioExportFormat, StemType } from '@stemdeck/proto';
import {
  decode,
  EXPORT_STEM_TYPES,
  ffprobe,
  makeStem,
  makeStems,
  mp3HeaderTag,
  resampleReference,
  residual,
  rmsDbfs,
  weightedSum,
} from '../../../../../test/support/export-audio';
import type { AudioTags, RenderStem } from './audio-renderer';
import { FfmpegAudioRenderer, type StoredAudio } from './ffmpeg-audio-renderer';

jest.setTimeout(60_000);

const SECONDS = 4;
const TAGS: AudioTags = { title: 'Night Drive', bpm: 120, key: 'A minor' };
/** The integer quantisation of a 24-bit file is ~−138 dBFS; the bound leaves room only for that. */
const NULL_BOUND_DBFS = -90;

let dir: string;
let stems: Record<StemType, string>;
/** Stored objects by key: the renderer's storage swapped for files ffmpeg reads by path. */
const objects = new Map<string, string>();
const storage: StoredAudio = {
  presignedReadUrl: async (key: string) => {
    const path = objects.get(key);
    if (!path) throw new Error(`no object ${key}`);
    return path;
  },
};
const renderer = new FfmpegAudioRenderer(storage);

const stem = (type: StemType, mix: Partial<Pick<RenderStem, 'volume' | 'muted' | 'soloed'>> = {}): RenderStem => ({
  type,
  objectKey: `stems/${type}`,
  volume: 0,
  muted: false,
  soloed: false,
  ...mix,
});
const allStems = (mixes: Partial<Record<StemType, Partial<RenderStem>>> = {}) => EXPORT_STEM_TYPES.map((type) => stem(type, mixes[type]));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-renderer-'));
  // The 'other' stem is an older project's 16-bit WAV; the rest 24-bit FLAC, as separation stores them.
  stems = makeStems(dir, { seconds: SECONDS, wav16: ['other'] });
  for (const type of EXPORT_STEM_TYPES) objects.set(`stems/${type}`, stems[type]);
  objects.set('stems/vocals-48k', makeStem(join(dir, 'vocals-48k.flac'), 'vocals', { seconds: SECONDS, sampleRate: 48_000 }));
  objects.set('stems/vocals-96k', makeStem(join(dir, 'vocals-96k.flac'), 'vocals', { seconds: 1, sampleRate: 96_000 }));
  objects.set('stems/mono', makeMono(join(dir, 'mono.flac')));
  objects.set('stems/quiet', makeQuiet(join(dir, 'quiet.flac')));
  writeFileSync(join(dir, 'not-audio.flac'), 'not audio at all');
  objects.set('stems/not-audio', join(dir, 'not-audio.flac'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function makeMono(path: string): string {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc=exprs='0.3*sin(2*PI*300*t)':s=44100:d=${SECONDS}`, '-c:a', 'flac', '-sample_fmt', 's32', path]);
  return path;
}

/** A tone at −110 dBFS: below a 16-bit file's last bit, so it survives the conversion only as dither. */
function makeQuiet(path: string): string {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc=exprs='3.16e-6*sin(2*PI*1000*t)|3.16e-6*sin(2*PI*1000*t)':s=48000:d=2`, '-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24', path]);
  return path;
}

const out = (name: string) => join(dir, name);

describe('FfmpegAudioRenderer formats (ffprobe)', () => {
  const expected: Record<AudioExportFormat, { formatName: string; codec: string; sampleRate: number; bits?: number; rawBits?: number; bitRate?: number }> = {
    'wav-24-48': { formatName: 'wav', codec: 'pcm_s24le', sampleRate: 48_000, bits: 24 },
    'wav-16-44': { formatName: 'wav', codec: 'pcm_s16le', sampleRate: 44_100, bits: 16 },
    'aiff-24-48': { formatName: 'aiff', codec: 'pcm_s24be', sampleRate: 48_000, bits: 24 },
    'mp3-320': { formatName: 'mp3', codec: 'mp3', sampleRate: 44_100, bitRate: 320_000 },
    flac: { formatName: 'flac', codec: 'flac', sampleRate: 44_100, rawBits: 24 },
  };

  for (const [format, want] of Object.entries(expected) as Array<[AudioExportFormat, (typeof expected)[AudioExportFormat]]>) {
    for (const kind of ['convert', 'mix'] as const) {
      it(`${kind} → ${format}: ${want.codec} ${want.sampleRate} Hz stereo, tagged`, async () => {
        const path = out(`${kind}-${format}.bin`);
        if (kind === 'convert') await renderer.convert({ objectKey: 'stems/vocals' }, format, TAGS, path);
        else await renderer.mix(allStems({ vocals: { volume: -6 }, bass: { muted: true } }), format, TAGS, path);
        const probe = ffprobe(path);
        expect(probe.formatName).toBe(want.formatName);
        expect(probe.codec).toBe(want.codec);
        expect(probe.sampleRate).toBe(want.sampleRate);
        expect(probe.channels).toBe(2);
        if (want.bits) expect(probe.bitsPerSample).toBe(want.bits);
        if (want.rawBits) expect(probe.bitsPerRawSample).toBe(want.rawBits);
        expect(probe.durationSeconds).toBeGreaterThanOrEqual(SECONDS - 0.01);
        expect(probe.durationSeconds).toBeLessThan(SECONDS + 0.1);
        expect(probe.tags.title).toBe('Night Drive');
        if (format === 'mp3-320' || format === 'aiff-24-48') {
          // ID3: TBPM (a whole number) and TKEY.
          expect(probe.tags.tbpm).toBe('120');
          expect(probe.tags.tkey).toBe('A minor');
        } else if (format === 'flac') {
          expect(probe.tags.bpm).toBe('120');
          expect(probe.tags.key).toBe('A minor');
        } else {
          // WAV's INFO list has no tempo or key field: they are in its comment.
          expect(probe.tags.comment).toBe('BPM 120 · Key A minor');
        }
        if (format === 'mp3-320') {
          expect(probe.bitRate).toBe(320_000);
          // LAME marks a constant-bitrate stream with an "Info" header (a VBR one with "Xing").
          expect(mp3HeaderTag(readFileSync(path))).toBe('Info');
          expectEveryFrameAt320(path);
        }
      });
    }
  }

  it('flac and mp3 keep the stem’s own rate (48 kHz here), wav-16-44 moves it to 44.1 kHz; mp3 from a rate MPEG-1 lacks is written at 48 kHz', async () => {
    await renderer.convert({ objectKey: 'stems/vocals-48k' }, 'flac', TAGS, out('48k.flac'));
    await renderer.convert({ objectKey: 'stems/vocals-48k' }, 'mp3-320', TAGS, out('48k.mp3'));
    await renderer.convert({ objectKey: 'stems/vocals-48k' }, 'wav-16-44', TAGS, out('48k-to-44.wav'));
    await renderer.convert({ objectKey: 'stems/vocals-96k' }, 'mp3-320', TAGS, out('96k.mp3'));
    expect(ffprobe(out('48k.flac')).sampleRate).toBe(48_000);
    expect(ffprobe(out('48k.mp3')).sampleRate).toBe(48_000);
    expect(ffprobe(out('48k-to-44.wav')).sampleRate).toBe(44_100);
    expect(ffprobe(out('96k.mp3'))).toMatchObject({ sampleRate: 48_000, bitRate: 320_000 });
  });

  it('tags without a tempo or key leave those out (no empty fields)', async () => {
    await renderer.convert({ objectKey: 'stems/vocals' }, 'mp3-320', { title: 'Untitled', bpm: null, key: null }, out('untagged.mp3'));
    await renderer.convert({ objectKey: 'stems/vocals' }, 'wav-24-48', { title: 'Untitled', bpm: null, key: null }, out('untagged.wav'));
    const mp3 = ffprobe(out('untagged.mp3'));
    expect(mp3.tags.title).toBe('Untitled');
    expect(mp3.tags.tbpm).toBeUndefined();
    expect(mp3.tags.tkey).toBeUndefined();
    expect(ffprobe(out('untagged.wav')).tags.comment).toBeUndefined();
  });
});

/** Every frame of a CBR 320 kbps stream is 320 kbps (ffprobe reads each frame header's own bitrate). */
function expectEveryFrameAt320(path: string): void {
  const { packets } = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'packet=size', '-of', 'json', path]).toString('utf8'),
  ) as { packets: Array<{ size: string }> };
  const sizes = packets.map((packet) => Number(packet.size));
  // 1152 samples at 44.1 kHz and 320 kbps: 1044 bytes, 1045 with the padding byte.
  expect(sizes.length).toBeGreaterThan(100);
  expect(new Set(sizes.filter((size) => size !== 1044 && size !== 1045)).size).toBe(0);
}

describe('FfmpegAudioRenderer mix: the studio’s mix law, summed without normalisation', () => {
  it('every stem at 0 dB nulls against the sum of the stems (flac, at the stems’ rate)', async () => {
    await renderer.mix(allStems(), 'flac', TAGS, out('null.flac'));
    const audio = await Promise.all(EXPORT_STEM_TYPES.map((type) => decode(stems[type])));
    const reference = weightedSum(audio.map((a) => ({ audio: a, gain: 1 })));
    const mixed = await decode(out('null.flac'));
    const diff = residual(mixed, reference);
    expect(diff.lengths[0]).toBe(diff.lengths[1]);
    expect(rmsDbfs(reference)).toBeGreaterThan(-20);
    expect(diff.peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
  });

  it('every stem at 0 dB nulls against the soxr-resampled sum (wav-24-48)', async () => {
    await renderer.mix(allStems(), 'wav-24-48', TAGS, out('null-48.wav'));
    const audio = await Promise.all(EXPORT_STEM_TYPES.map((type) => decode(stems[type])));
    const reference = await resampleReference(weightedSum(audio.map((a) => ({ audio: a, gain: 1 }))), 48_000, dir);
    const mixed = await decode(out('null-48.wav'));
    const diff = residual(mixed, reference);
    expect(mixed.sampleRate).toBe(48_000);
    expect(Math.abs(diff.lengths[0] - diff.lengths[1])).toBeLessThanOrEqual(1);
    expect(diff.peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
  });

  it('−6 dB on the vocals and the bass muted: vocals × 10^(−6/20) + drums + other', async () => {
    await renderer.mix(allStems({ vocals: { volume: -6 }, bass: { muted: true } }), 'flac', TAGS, out('law.flac'));
    const [vocals, drums, other, bass] = await Promise.all([decode(stems.vocals), decode(stems.drums), decode(stems.other), decode(stems.bass)]);
    const expected = weightedSum([
      { audio: vocals, gain: 10 ** (-6 / 20) },
      { audio: drums, gain: 1 },
      { audio: other, gain: 1 },
    ]);
    const mixed = await decode(out('law.flac'));
    expect(residual(mixed, expected).peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
    // Not a test that cannot fail: the same mix with the bass in it is far from this render.
    const withBass = weightedSum([
      { audio: vocals, gain: 10 ** (-6 / 20) },
      { audio: drums, gain: 1 },
      { audio: other, gain: 1 },
      { audio: bass, gain: 1 },
    ]);
    expect(residual(mixed, withBass).peakDbfs).toBeGreaterThan(-20);
  });

  it('any soloed stem: only the soloed ones sound (a soloed, muted one stays silent); volumes clamp to −60…+12 dB', async () => {
    await renderer.mix(
      allStems({ drums: { soloed: true, volume: 40 }, other: { soloed: true, volume: -100 }, vocals: { soloed: true, muted: true } }),
      'flac',
      TAGS,
      out('solo.flac'),
    );
    const [drums, other] = await Promise.all([decode(stems.drums), decode(stems.other)]);
    // +40 dB clamps to +12 (the drums at ×3.98 peak near 0.8), −100 dB to −60.
    const expected = weightedSum([
      { audio: drums, gain: 10 ** (12 / 20) },
      { audio: other, gain: 10 ** (-60 / 20) },
    ]);
    expect(residual(await decode(out('solo.flac')), expected).peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
  });

  it('every stem muted: silence as long as the song', async () => {
    await renderer.mix(allStems({ vocals: { muted: true }, drums: { muted: true }, bass: { muted: true }, other: { muted: true } }), 'wav-24-48', TAGS, out('silent.wav'));
    const silent = await decode(out('silent.wav'));
    expect(silent.left.length).toBeGreaterThanOrEqual(SECONDS * 48_000 - 1);
    expect(rmsDbfs(silent)).toBe(-Infinity);
  });

  it('a mono stem sounds at full level on both sides (as the browser upmixes it)', async () => {
    await renderer.mix([{ ...stem('other'), objectKey: 'stems/mono' }], 'flac', TAGS, out('mono-mix.flac'));
    const mono = await decode(objects.get('stems/mono')!);
    const mixed = await decode(out('mono-mix.flac'));
    expect(residual(mixed, { left: mono.left, right: mono.left }).peakDbfs).toBeLessThanOrEqual(NULL_BOUND_DBFS);
  });

  it('stems at different rates meet at the first one’s rate', async () => {
    await renderer.mix([stem('drums'), { ...stem('vocals'), objectKey: 'stems/vocals-48k' }], 'flac', TAGS, out('rates.flac'));
    const probe = ffprobe(out('rates.flac'));
    expect(probe.sampleRate).toBe(44_100);
    const [drums, vocals] = await Promise.all([decode(stems.drums), decode(objects.get('stems/vocals-48k')!, 44_100)]);
    // The 48 kHz vocals resampled by ffmpeg's default resampler for the reference: they agree far below the music.
    const diff = residual(await decode(out('rates.flac')), weightedSum([{ audio: drums, gain: 1 }, { audio: vocals, gain: 1 }]));
    expect(diff.rmsDbfs).toBeLessThan(-60);
  });
});

describe('FfmpegAudioRenderer conversions', () => {
  it('flac from a 24-bit FLAC or a 16-bit WAV stem is lossless (24-bit, every sample equal)', async () => {
    for (const type of ['drums', 'other'] as const) {
      await renderer.convert({ objectKey: `stems/${type}` }, 'flac', TAGS, out(`${type}-copy.flac`));
      expect(ffprobe(out(`${type}-copy.flac`)).bitsPerRawSample).toBe(24);
      const diff = residual(await decode(out(`${type}-copy.flac`)), await decode(stems[type]));
      expect(diff.lengths[0]).toBe(diff.lengths[1]);
      expect(diff.peakDbfs).toBe(-Infinity);
    }
  });

  it('wav-16-44 adds TPDF dither at the 16-bit conversion: a −110 dBFS tone comes out as ±1 LSB triangular noise (−96 dBFS RMS), not silence', async () => {
    await renderer.convert({ objectKey: 'stems/quiet' }, 'wav-16-44', TAGS, out('quiet-16.wav'));
    await renderer.convert({ objectKey: 'stems/quiet' }, 'wav-24-48', TAGS, out('quiet-24.wav'));
    const dithered = await decode(out('quiet-16.wav'));
    // TPDF of ±1 LSB plus the rounding: RMS of half an LSB of 16 bits, 20·log10(2^−16) = −96.3 dBFS.
    expect(rmsDbfs(dithered)).toBeGreaterThan(-97.5);
    expect(rmsDbfs(dithered)).toBeLessThan(-95);
    // The 24-bit conversions are not dithered: the tone is there at its own level.
    expect(rmsDbfs(await decode(out('quiet-24.wav')))).toBeCloseTo(-113, 0);
  });

  it('reports progress from ffmpeg’s out_time against the duration, rising to 1', async () => {
    const seen: number[] = [];
    await renderer.mix(allStems(), 'mp3-320', TAGS, out('progress.mp3'), (fraction) => seen.push(fraction));
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[seen.length - 1]).toBe(1);
    expect(seen.every((value, i) => value >= 0 && value <= 1 && (i === 0 || value >= seen[i - 1]))).toBe(true);
  });

  it('an object that is not audio fails the render and leaves no file', async () => {
    await expect(renderer.convert({ objectKey: 'stems/not-audio' }, 'flac', TAGS, out('broken.flac'))).rejects.toThrow();
    await expect(renderer.mix([stem('drums'), { ...stem('vocals'), objectKey: 'stems/not-audio' }], 'wav-24-48', TAGS, out('broken.wav'))).rejects.toThrow();
    expect(existsSync(out('broken.flac'))).toBe(false);
    expect(existsSync(out('broken.wav'))).toBe(false);
  });

  it('a failure inside ffmpeg removes what it had written', async () => {
    // An ffmpeg that writes part of its output (the last argument) and then fails.
    const failing = new FfmpegAudioRenderer(storage, { ffmpeg: join(dir, 'ffmpeg-fails') });
    writeFileSync(join(dir, 'ffmpeg-fails'), `#!/bin/sh\nfor last; do :; done\necho partial > "$last"\nexit 1\n`, { mode: 0o755 });
    await expect(failing.convert({ objectKey: 'stems/vocals' }, 'wav-24-48', TAGS, out('half.wav'))).rejects.toThrow();
    expect(existsSync(out('half.wav'))).toBe(false);
  });
});

/**
 * Stored objects served over HTTP as storage serves presigned reads, and storage failing midway. `/<mode>/<file>`:
 * `whole` sends it all; `half` announces the whole length, sends half and closes the connection; `stall` sends
 * half and then nothing; `trickle` serves its first request (the probe) whole, later ones a few bytes at a time;
 * `drop-once` honours ranges (as object storage does) and drops its second request (ffmpeg's first) half-way.
 */
async function startStorageServer(files: Map<string, string>): Promise<{ server: Server; url: (mode: string, name: string) => string }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const [, mode, name] = (req.url ?? '').split('/');
    const bytes = readFileSync(files.get(name)!);
    const hit = (hits.get(req.url!) ?? 0) + 1;
    hits.set(req.url!, hit);
    const range = mode === 'drop-once' ? /bytes=(\d+)-/.exec(req.headers.range ?? '') : null;
    const start = range ? Number(range[1]) : 0;
    const body = bytes.subarray(start);
    res.writeHead(range ? 206 : 200, {
      'Content-Length': body.length,
      ...(mode === 'drop-once' ? { 'Accept-Ranges': 'bytes' } : {}),
      ...(range ? { 'Content-Range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    const half = body.subarray(0, body.length >> 1);
    if (mode === 'half' || (mode === 'drop-once' && hit === 2)) res.write(half, () => setTimeout(() => res.socket?.destroy(), 20));
    else if (mode === 'stall') res.write(half);
    else if (mode === 'trickle' && hit > 1) {
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed || sent >= body.length) return clearInterval(timer);
        res.write(body.subarray(sent, sent + 64));
        sent += 64;
      }, 100);
      res.on('close', () => clearInterval(timer));
    } else res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: (mode, name) => `http://127.0.0.1:${port}/${mode}/${name}` };
}

describe('FfmpegAudioRenderer reading stems over HTTP: a read cut short or stalled never becomes a stored file', () => {
  let http: Awaited<ReturnType<typeof startStorageServer>>;
  const served = new Map<string, string>();
  const overHttp = (limits = {}) =>
    new FfmpegAudioRenderer({ presignedReadUrl: async (key: string) => http.url(key.split(':')[0], key.split(':')[1]) }, { limits });

  beforeAll(async () => {
    served.set('vocals', stems.vocals);
    served.set('drums', stems.drums);
    served.set('short', objects.get('stems/vocals-96k')!);
    http = await startStorageServer(served);
  });
  afterAll(async () => {
    http.server.closeAllConnections();
    await new Promise((resolve) => http.server.close(resolve));
  });

  it('reads a whole stem over HTTP', async () => {
    await overHttp().convert({ objectKey: 'whole:vocals' }, 'wav-24-48', TAGS, out('http-whole.wav'));
    expect(ffprobe(out('http-whole.wav')).durationSeconds).toBeCloseTo(SECONDS, 3);
  });

  it('a connection that ends half-way fails the convert and the mix, and leaves no file', async () => {
    await expect(overHttp().convert({ objectKey: 'half:vocals' }, 'wav-24-48', TAGS, out('http-half.wav'))).rejects.toThrow(/connection to storage ended before the stem was read whole/);
    await expect(overHttp().convert({ objectKey: 'half:vocals' }, 'flac', TAGS, out('http-half.flac'))).rejects.toThrow();
    await expect(
      overHttp().mix([{ ...stem('drums'), objectKey: 'whole:drums' }, { ...stem('vocals'), objectKey: 'half:vocals' }], 'mp3-320', TAGS, out('http-half.mp3')),
    ).rejects.toThrow();
    for (const name of ['http-half.wav', 'http-half.flac', 'http-half.mp3']) expect(existsSync(out(name))).toBe(false);
  });

  it('a connection object storage drops once is resumed where it stopped (ranged reconnect): the file is whole, every sample equal', async () => {
    await overHttp().convert({ objectKey: 'drop-once:vocals' }, 'wav-24-48', TAGS, out('http-resumed.wav'));
    const local = out('local-reference.wav');
    await renderer.convert({ objectKey: 'stems/vocals' }, 'wav-24-48', TAGS, local);
    const diff = residual(await decode(out('http-resumed.wav')), await decode(local));
    expect(diff.lengths[0]).toBe(diff.lengths[1]);
    expect(diff.peakDbfs).toBe(-Infinity);
  });

  it('a read that stalls fails after the read timeout (not never), and leaves no file', async () => {
    const started = Date.now();
    await expect(overHttp({ readTimeoutSeconds: 1 }).convert({ objectKey: 'stall:vocals' }, 'wav-24-48', TAGS, out('http-stall.wav'))).rejects.toThrow(
      /Storage stopped sending the stem: no data for 1 s \(read timed out\)/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(out('http-stall.wav'))).toBe(false);
  }, 20_000);

  it('a render that runs past twice the song (at least the minimum) is killed and says so', async () => {
    // The 1 s stem trickles in at 640 bytes/s: each read is quick, the whole would take minutes.
    const started = Date.now();
    await expect(
      overHttp({ minRunSeconds: 1 }).convert({ objectKey: 'trickle:short' }, 'wav-24-48', TAGS, out('http-trickle.wav')),
    ).rejects.toThrow(/ran past its limit of 2 s and was stopped/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(out('http-trickle.wav'))).toBe(false);
  }, 20_000);
});

describe('FfmpegAudioRenderer holds the output to its source’s length', () => {
  /** An ffmpeg that ends its output after 1 s and exits 0, as ffmpeg 5.1 does when its input ends early unnoticed. */
  const cutShort = () => {
    const path = join(dir, 'ffmpeg-cuts-short');
    writeFileSync(path, '#!/bin/bash\nlast="${@: -1}"\nset -- "${@:1:$#-1}"\nexec ffmpeg "$@" -t 1 "$last"\n', { mode: 0o755 });
    return new FfmpegAudioRenderer(storage, { ffmpeg: path });
  };

  it('a shorter output than the stems fails the render and is deleted (convert, the flac copy and the mix)', async () => {
    await expect(cutShort().convert({ objectKey: 'stems/vocals' }, 'wav-16-44', TAGS, out('cut.wav'))).rejects.toThrow(/1\.000 s long where its source is 4\.000 s/);
    await expect(cutShort().convert({ objectKey: 'stems/vocals' }, 'flac', TAGS, out('cut.flac'))).rejects.toThrow(/not read whole/);
    await expect(cutShort().mix(allStems(), 'mp3-320', TAGS, out('cut.mp3'))).rejects.toThrow(/not read whole/);
    for (const name of ['cut.wav', 'cut.flac', 'cut.mp3']) expect(existsSync(out(name))).toBe(false);
  });

  it('a stem with no length in its header (FLAC streamed into storage) still renders: there is nothing to hold it to', async () => {
    const streamed = join(dir, 'streamed.flac');
    execFileSync('sh', ['-c', `ffmpeg -v error -i '${stems.vocals}' -c:a flac -sample_fmt s32 -f flac pipe:1 > '${streamed}'`]);
    objects.set('stems/streamed', streamed);
    await renderer.convert({ objectKey: 'stems/streamed' }, 'wav-24-48', TAGS, out('streamed.wav'));
    await renderer.mix([stem('drums'), { ...stem('vocals'), objectKey: 'stems/streamed' }], 'mp3-320', TAGS, out('streamed.mp3'));
    expect(ffprobe(out('streamed.wav')).durationSeconds).toBeCloseTo(SECONDS, 3);
    expect(ffprobe(out('streamed.mp3')).durationSeconds).toBeGreaterThanOrEqual(SECONDS - 0.01);
  });

  it('a flac export of a stem with no length in its header gets a complete header (its length), every sample equal', async () => {
    const streamed = join(dir, 'streamed-24.flac');
    execFileSync('sh', ['-c', `ffmpeg -v error -i '${stems.drums}' -c:a flac -sample_fmt s32 -f flac pipe:1 > '${streamed}'`]);
    expect(ffprobe(streamed).durationSeconds).toBe(0);
    objects.set('stems/streamed-24', streamed);
    await renderer.convert({ objectKey: 'stems/streamed-24' }, 'flac', TAGS, out('streamed-24-export.flac'));
    expect(ffprobe(out('streamed-24-export.flac')).durationSeconds).toBeCloseTo(SECONDS, 3);
    expect(ffprobe(out('streamed-24-export.flac')).bitsPerRawSample).toBe(24);
    const diff = residual(await decode(out('streamed-24-export.flac')), await decode(stems.drums));
    expect(diff.lengths[0]).toBe(diff.lengths[1]);
    expect(diff.peakDbfs).toBe(-Infinity);
  });
});
