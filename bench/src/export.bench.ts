/**
 * Export benchmark: a 4-minute, four-stem project (24-bit FLAC, 44.1 kHz, stereo) exported by the export service's
 * renderer (FfmpegAudioRenderer) the three ways the issue times:
 *  - the full mix as wav-24-48 (one ffmpeg: four inputs, float sum, soxr to 48 kHz, 24-bit) — goal ≤ 3 s;
 *  - all four stems as flac, then zipped (stored: FLAC does not compress further) — goal ≤ 8 s;
 *  - all four stems as mp3-320, then zipped — goal ≤ 15 s.
 * Timed through the service's own ExportBuilder (its renders, then its zip), so the figures are what a user waits for
 * once the worker starts (the upload to object storage and the queue come on top); the builder runs the per-stem
 * renders side by side, one ffmpeg per core. Prints wall time,
 * real-time factor (audio seconds rendered per second: four stems count 4 × 240 s), CPU seconds, the peak resident
 * memory of node and its ffmpeg processes together (sampled every 20 ms), a PASS/FAIL line per goal and a JSON line.
 *
 * The stems are read from local files (the renderer's storage swapped for paths ffmpeg opens directly); in the service
 * ffmpeg reads the same bytes from object storage over a presigned url. The stems are the evaluation set's 4-minute
 * track (`npm run bench:eval-set`) encoded as 24-bit FLAC, or synthesised with ffmpeg when the set is absent.
 *
 *   npm run bench:export -- [--dir .data/eval-set] [--runs 3] [--keep DIR]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { FfmpegAudioRenderer } from '@stemdeck/export/dist/exports/audio/ffmpeg-audio-renderer';
import { ExportBuilder } from '@stemdeck/export/dist/exports/export-builder';
import type { ExportDocument, PlannedAudioFile } from '@stemdeck/export/dist/exports/export.schema';
import type { AudioExportFormat } from '@stemdeck/proto';
import { DEFAULT_EVAL_SET_DIR } from './eval-set/meta';

const SONG_SECONDS = 240;
const STEMS = ['vocals', 'drums', 'bass', 'other'] as const;
const GOALS = { fullMixWav: 3, stemsFlacZip: 8, stemsMp3Zip: 15 };
const ROOT = path.resolve(__dirname, '..', '..');
const LONG_TRACK = 'long-4min';
const TAGS = { title: 'Export bench', bpm: 120, key: 'A minor' };

interface Args {
  dir: string;
  runs: number;
  keep?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { dir: DEFAULT_EVAL_SET_DIR, runs: 3 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') args.dir = argv[++i];
    else if (argv[i] === '--runs') args.runs = Math.max(1, Number(argv[++i]));
    else if (argv[i] === '--keep') args.keep = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (expected --dir PATH, --runs N, --keep DIR)`);
  }
  return args;
}

/** Synthetic stems when the evaluation set is absent: one expression per channel, each stem its own material. */
const SYNTH: Record<(typeof STEMS)[number], string> = {
  vocals: "0.2*sin(2*PI*(440*t+3*sin(2*PI*5*t)))*(0.6+0.4*sin(2*PI*2*t))|0.18*sin(2*PI*(554*t+3*sin(2*PI*5*t)))*(0.6+0.4*sin(2*PI*2*t+1))",
  drums: '0.3*sin(2*PI*55*t)*exp(-mod(t,0.5)*14)+0.1*(random(0)*2-1)*exp(-mod(t+0.25,0.5)*40)|0.3*sin(2*PI*55*t)*exp(-mod(t,0.5)*14)+0.1*(random(1)*2-1)*exp(-mod(t+0.25,0.5)*40)',
  bass: '0.25*sin(2*PI*82.4*t)+0.04*sin(2*PI*164.8*t)|0.24*sin(2*PI*82.4*t+0.3)+0.04*sin(2*PI*164.8*t)',
  other: '0.08*(sin(2*PI*261.6*t)+sin(2*PI*329.6*t)+sin(2*PI*392*t))+0.02*(random(2)*2-1)|0.08*(sin(2*PI*261.6*t+1)+sin(2*PI*329.6*t+2)+sin(2*PI*392*t+3))+0.02*(random(3)*2-1)',
};

/** The four stems as 24-bit FLAC, made once into .data/bench/export-4min (untimed). */
function prepareStems(evalSetDir: string): { dir: string; source: string } {
  const dir = path.join(ROOT, '.data', 'bench', 'export-4min-streamed');
  mkdirSync(dir, { recursive: true });
  const track = path.join(evalSetDir, LONG_TRACK);
  const fromSet = STEMS.every((stem) => existsSync(path.join(track, `${stem}.wav`)));
  for (const stem of STEMS) {
    const flac = path.join(dir, `${stem}.flac`);
    if (existsSync(flac)) continue;
    const input = fromSet
      ? ['-i', path.join(track, `${stem}.wav`)]
      : ['-f', 'lavfi', '-i', `aevalsrc=exprs='${SYNTH[stem]}':s=44100:d=${SONG_SECONDS}`];
    // Written through a pipe, as media streams stems into object storage: the header then holds no length (nor an
    // MD5), as in the service, so the flac export encodes rather than copies, as it does there.
    const bytes = execFileSync('ffmpeg', ['-v', 'error', ...input, '-t', String(SONG_SECONDS), '-ar', '44100', '-ac', '2', '-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24', '-f', 'flac', 'pipe:1'], { maxBuffer: 1 << 30 });
    writeFileSync(flac, bytes);
  }
  return { dir, source: fromSet ? path.relative(ROOT, track) : 'synthesised (lavfi)' };
}

/** Resident memory of this process and every process below it, kB (from /proc). */
function treeRssKb(): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      // rss (field 24) is in pages.
      rss.set(Number(entry), (Number(fields[21]) * 4096) / 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we read
    }
  }
  let total = 0;
  const visit = (pid: number) => {
    total += rss.get(pid) ?? 0;
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(process.pid);
  return total;
}

/** CPU seconds of this process and its finished children (ffmpeg). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
}

interface Measured {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  bytes: number;
}

async function measure(work: () => Promise<string>): Promise<Measured> {
  let peak = treeRssKb();
  const sampler = setInterval(() => (peak = Math.max(peak, treeRssKb())), 20);
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  try {
    const output = await work();
    const seconds = (performance.now() - started) / 1000;
    return { seconds, cpuSeconds: cpuSeconds() - cpuBefore, peakRssMb: peak / 1024, bytes: statSync(output).size };
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const stems = prepareStems(args.dir);
  const renderer = new FfmpegAudioRenderer({ presignedReadUrl: async (key: string) => path.join(stems.dir, key) });
  const outDir = args.keep ?? mkdtempSync(path.join(tmpdir(), 'stemdeck-export-bench-'));
  mkdirSync(outDir, { recursive: true });
  const cores = cpus().length;
  const loadAtStart = loadavg();
  console.log(`export bench: 4 stems × ${SONG_SECONDS} s, 24-bit FLAC 44.1 kHz stereo, from ${stems.source}`);
  console.log(`${cores} CPUs, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start; best of ${args.runs} runs\n`);

  // The service's own builder (renders, then the zip), on a document like the planner writes: what a user waits for.
  const builder = new ExportBuilder(renderer, { write: async () => [] });
  const mixStems = STEMS.map((type) => ({ type, objectKey: `${type}.flac`, volume: 0, muted: false, soloed: false }));
  const build = (format: AudioExportFormat, files: PlannedAudioFile[], filename: string) => async () => {
    const dir = mkdtempSync(path.join(outDir, 'build-'));
    const doc = { kind: 'audio', request: { format }, files, tags: TAGS, filename } as unknown as ExportDocument;
    const built = await builder.build(doc, dir, () => undefined);
    return built.path;
  };
  const stemFiles = (extension: string): PlannedAudioFile[] =>
    STEMS.map((type) => ({ name: `Export bench - ${type}.${extension}`, kind: 'convert', objectKey: `${type}.flac` }));
  const cases = [
    {
      name: 'full mix → wav-24-48',
      key: 'fullMixWav' as const,
      audioSeconds: SONG_SECONDS,
      work: build('wav-24-48', [{ name: 'Export bench - full mix.wav', kind: 'mix', stems: mixStems }], 'Export bench - full mix.wav'),
    },
    { name: '4 stems → flac + zip', key: 'stemsFlacZip' as const, audioSeconds: 4 * SONG_SECONDS, work: build('flac', stemFiles('flac'), 'Export bench - stems.zip') },
    { name: '4 stems → mp3-320 + zip', key: 'stemsMp3Zip' as const, audioSeconds: 4 * SONG_SECONDS, work: build('mp3-320', stemFiles('mp3'), 'Export bench - stems.zip') },
  ];

  console.log(`${'export'.padEnd(26)}${'wall s'.padStart(8)}${'× real time'.padStart(13)}${'cpu s'.padStart(8)}${'peak RSS MB'.padStart(13)}${'size MB'.padStart(9)}   runs (s)`);
  const results: Array<{ key: keyof typeof GOALS; name: string; best: Measured; runs: number[]; realTime: number; peakRssMb: number }> = [];
  try {
    for (const c of cases) {
      const runs: Measured[] = [];
      for (let i = 0; i < args.runs; i++) runs.push(await measure(c.work));
      const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const realTime = c.audioSeconds / best.seconds;
      const peakRssMb = Math.max(...runs.map((r) => r.peakRssMb));
      results.push({ key: c.key, name: c.name, best, runs: runs.map((r) => r.seconds), realTime, peakRssMb });
      console.log(
        `${c.name.padEnd(26)}${best.seconds.toFixed(2).padStart(8)}${realTime.toFixed(0).padStart(13)}${best.cpuSeconds.toFixed(1).padStart(8)}` +
          `${peakRssMb.toFixed(0).padStart(13)}${(best.bytes / 1e6).toFixed(1).padStart(9)}   ${runs.map((r) => r.seconds.toFixed(2)).join(' ')}`,
      );
    }
  } finally {
    if (!args.keep) rmSync(outDir, { recursive: true, force: true });
  }
  const loadAtEnd = loadavg();
  console.log('');
  for (const r of results) console.log(`${r.best.seconds <= GOALS[r.key] ? 'PASS' : 'FAIL'}  ${r.name} ≤ ${GOALS[r.key]} s: ${r.best.seconds.toFixed(2)} s`);
  const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
  console.log(
    JSON.stringify({
      benchmark: 'export',
      stems: stems.source,
      cores,
      goalsMet: results.every((r) => r.best.seconds <= GOALS[r.key]),
      loadAverage: { start: loadAtStart.map((l) => round(l, 2)), end: loadAtEnd.map((l) => round(l, 2)) },
      exports: results.map((r) => ({
        export: r.name,
        goalSeconds: GOALS[r.key],
        seconds: round(r.best.seconds, 2),
        runs: r.runs.map((s) => round(s, 2)),
        realTime: round(r.realTime, 1),
        cpuSeconds: round(r.best.cpuSeconds, 1),
        peakRssMb: round(r.peakRssMb, 0),
      })),
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
