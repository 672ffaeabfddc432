/**
 * Mastering benchmark: the evaluation set's 4-minute song (stereo, 44.1 kHz) mastered in every style at every
 * intensity by the local engine (masterAudioFile, ffmpeg filters), then each master measured again from the written
 * file, independently of the engine's own figures: ebur128 (peak=true) for integrated loudness, loudness range and
 * true peak, a decode for clipped samples, aspectralstats/astats for spectral centroid and crest factor. Prints a row
 * per master, a PASS/FAIL line per goal and a JSON summary line.
 *
 * Goals: every master within ±0.5 LU of its target (−16 / −14 / −11 LUFS), at or below −1.0 dBTP, no clipped sample;
 * at each intensity spectral centroid warm < balanced < open and crest factor punchy > smooth; each master in ≤ 10 s.
 * Wall time depends on what else the machine runs: the load average is printed, and "cpu" is the CPU time the
 * master took (its ffmpeg processes and node), which does not.
 *
 *   npm run bench:mastering -- [--dir .data/eval-set] [--song FILE] [--keep DIR]
 *
 * Without a 4-minute song in the set (or --song), one is made by concatenating the set's mixtures to 4:00.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  MASTERING_INTENSITIES,
  MASTERING_INTENSITY_NAMES,
  MASTERING_LOUDNESS_TOLERANCE_LU,
  MASTERING_STYLES,
  MASTERING_TARGET_LUFS,
  MASTERING_TRUE_PEAK_MAX_DBTP,
  masterAudioFile,
  measureCharacter,
  measureR128,
  probeMedia,
  scanSamples,
  type LoudnessStats,
  type MasteringIntensity,
  type MasteringResult,
  type MasteringStyle,
} from '@stemdeck/audio';
import { loadEvalSet } from './eval-set/load';
import { DEFAULT_EVAL_SET_DIR, MIXTURE_FILE } from './eval-set/meta';

const SONG_SECONDS = 240;
const SPEED_GOAL_SECONDS = 10;
const ROOT = path.resolve(__dirname, '..', '..');

interface Row {
  style: MasteringStyle;
  intensity: MasteringIntensity;
  target: number;
  before: LoudnessStats;
  after: LoudnessStats;
  clipped: number;
  centroidHz: number;
  crestDb: number;
  seconds: number;
  cpuSeconds: number;
  engine: MasteringResult;
  format: { codec: string; sampleRate: number; channels: number; bits: number };
}

function parseArgs(argv: string[]): { dir: string; song?: string; keep?: string } {
  const args: { dir: string; song?: string; keep?: string } = { dir: DEFAULT_EVAL_SET_DIR };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') args.dir = argv[++i];
    else if (argv[i] === '--song') args.song = argv[++i];
    else if (argv[i] === '--keep') args.keep = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (expected --dir PATH, --song FILE, --keep DIR)`);
  }
  return args;
}

/** The set's 4-minute song, or one made by concatenating its mixtures with ffmpeg and cutting at 4:00. */
function findSong(dir: string): string {
  const tracks = loadEvalSet(dir);
  const long = tracks.find((track) => track.durationSeconds >= SONG_SECONDS - 1);
  if (long) return path.join(long.dir, MIXTURE_FILE);
  const made = path.join(ROOT, '.data', 'bench', 'mastering-4min.wav');
  if (!existsSync(made)) {
    const parts: string[] = [];
    for (let seconds = 0; seconds < SONG_SECONDS; ) {
      const track = tracks[parts.length % tracks.length];
      parts.push(path.join(track.dir, MIXTURE_FILE));
      seconds += track.durationSeconds;
    }
    mkdirSync(path.dirname(made), { recursive: true });
    console.log(`no 4-minute song in ${dir}: concatenating ${parts.length} mixtures into ${made}`);
    execFileSync('ffmpeg', [
      '-v', 'error', '-y', ...parts.flatMap((part) => ['-i', part]),
      '-filter_complex', `${parts.map((_, i) => `[${i}:a]`).join('')}concat=n=${parts.length}:v=0:a=1,atrim=0:${SONG_SECONDS}`,
      '-c:a', 'pcm_f32le', made,
    ]);
  }
  return made;
}

/** CPU seconds this process and its finished children (ffmpeg) have used: /proc/self/stat utime..cstime. */
function cpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After "pid (comm) ": state is field 3, so utime/stime/cutime/cstime (fields 14–17) sit at 11–14.
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  } catch {
    return NaN;
  }
}

async function masterOne(song: string, outDir: string, style: MasteringStyle, intensity: MasteringIntensity): Promise<Row> {
  const output = path.join(outDir, `${style}-${intensity}.flac`);
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  const engine = await masterAudioFile({ input: song, output, style, intensity });
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds() - cpuBefore;
  const [after, scan, character, probe] = await Promise.all([measureR128(output), scanSamples(output), measureCharacter(output), probeMedia(output)]);
  const bits = Number(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=bits_per_raw_sample', '-of', 'csv=p=0', output]).toString().trim());
  return {
    style,
    intensity,
    target: MASTERING_TARGET_LUFS[intensity],
    before: engine.before,
    after,
    clipped: scan.clippedSamples,
    centroidHz: character.spectralCentroidHz,
    crestDb: character.crestFactorDb,
    seconds,
    cpuSeconds: cpu,
    engine,
    format: { codec: probe.audio!.codec, sampleRate: probe.audio!.sampleRate, channels: probe.audio!.channels, bits },
  };
}

const f = (value: number, decimals: number, width: number) => value.toFixed(decimals).padStart(width);

function header(): string {
  return [
    'style   '.padEnd(9),
    'intensity'.padEnd(14),
    'LUFS before → after'.padEnd(21),
    'LRA before → after',
    ' dBTP before → after',
    'clipped',
    'centroid Hz',
    'crest dB',
    '  time s',
    'cpu s',
    'runs',
  ].join('  ');
}

function printRow(r: Row): void {
  console.log(
    [
      r.style.padEnd(9),
      `${r.intensity} ${MASTERING_INTENSITY_NAMES[r.intensity]} (${r.target})`.padEnd(14),
      `${f(r.before.integratedLufs, 2, 7)} → ${f(r.after.integratedLufs, 2, 7)}    `,
      `${f(r.before.loudnessRangeLu, 1, 6)} → ${f(r.after.loudnessRangeLu, 1, 6)}   `,
      `${f(r.before.truePeakDbtp, 2, 7)} → ${f(r.after.truePeakDbtp, 2, 7)}   `,
      String(r.clipped).padStart(7),
      f(r.centroidHz, 0, 11),
      f(r.crestDb, 2, 8),
      f(r.seconds, 2, 8),
      f(r.cpuSeconds, 1, 5),
      String(r.engine.ffmpegRuns).padStart(4),
    ].join('  '),
  );
}

const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

async function main(): Promise<void> {
  const { dir, song: songArg, keep } = parseArgs(process.argv.slice(2));
  const song = songArg ?? findSong(dir);
  const probe = await probeMedia(song);
  const outDir = keep ?? mkdtempSync(path.join(tmpdir(), 'stemdeck-mastering-bench-'));
  mkdirSync(outDir, { recursive: true });
  // Untimed: the input's own figures, which also brings the file into the page cache for the timed runs.
  const input = await measureR128(song);
  console.log(
    `mastering bench: ${path.relative(ROOT, song)} (${probe.durationSeconds.toFixed(1)} s, ${probe.audio!.channels} ch, ` +
      `${probe.audio!.sampleRate} Hz, ${probe.audio!.codec}); input ${input.integratedLufs.toFixed(2)} LUFS, ` +
      `LRA ${input.loudnessRangeLu.toFixed(1)} LU, ${input.truePeakDbtp.toFixed(2)} dBTP`,
  );
  const loadAtStart = loadavg();
  console.log(`${cpus().length} CPUs, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} (1/5/15 min) at start\n`);
  console.log(header());

  const rows: Row[] = [];
  try {
    for (const intensity of MASTERING_INTENSITIES) {
      for (const style of MASTERING_STYLES) {
        const row = await masterOne(song, outDir, style, intensity);
        printRow(row);
        rows.push(row);
      }
    }
  } finally {
    if (!keep) rmSync(outDir, { recursive: true, force: true });
  }
  const loadAtEnd = loadavg();

  const loudnessMisses = rows.map((r) => Math.abs(r.after.integratedLufs - r.target));
  const maxTruePeak = Math.max(...rows.map((r) => r.after.truePeakDbtp));
  const totalClipped = rows.reduce((sum, r) => sum + r.clipped, 0);
  const byIntensity = MASTERING_INTENSITIES.map((intensity) => {
    const get = (style: MasteringStyle) => rows.find((r) => r.style === style && r.intensity === intensity)!;
    return {
      intensity,
      centroid: { warm: get('warm').centroidHz, balanced: get('balanced').centroidHz, open: get('open').centroidHz },
      crest: { punchy: get('punchy').crestDb, smooth: get('smooth').crestDb },
    };
  });
  const centroidOk = byIntensity.every((b) => b.centroid.warm < b.centroid.balanced && b.centroid.balanced < b.centroid.open);
  const crestOk = byIntensity.every((b) => b.crest.punchy > b.crest.smooth);
  const times = rows.map((r) => r.seconds).sort((a, b) => a - b);
  const cpuTimes = rows.map((r) => r.cpuSeconds).sort((a, b) => a - b);
  const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)];
  const formatOk = rows.every(
    (r) => r.format.codec === 'flac' && r.format.bits === 24 && r.format.sampleRate === probe.audio!.sampleRate && r.format.channels === probe.audio!.channels,
  );
  const goals = {
    loudness: loudnessMisses.every((miss) => miss <= MASTERING_LOUDNESS_TOLERANCE_LU),
    truePeak: maxTruePeak <= MASTERING_TRUE_PEAK_MAX_DBTP,
    noClips: totalClipped === 0,
    centroidOrder: centroidOk,
    crestOrder: crestOk,
    speed: times[times.length - 1] <= SPEED_GOAL_SECONDS,
    format: formatOk,
  };

  console.log('');
  console.log(`${mark(goals.loudness)}  integrated loudness within ±${MASTERING_LOUDNESS_TOLERANCE_LU} LU of target: max |Δ| ${Math.max(...loudnessMisses).toFixed(2)} LU`);
  console.log(`${mark(goals.truePeak)}  true peak ≤ ${MASTERING_TRUE_PEAK_MAX_DBTP.toFixed(1)} dBTP: max ${maxTruePeak.toFixed(2)} dBTP`);
  console.log(`${mark(goals.noClips)}  no clipped samples (|x| ≥ full scale): ${totalClipped} in all masters`);
  for (const b of byIntensity) {
    const { warm, balanced, open } = b.centroid;
    console.log(
      `${mark(warm < balanced && balanced < open)}  ${MASTERING_INTENSITY_NAMES[b.intensity]}: centroid warm < balanced < open: ` +
        `${warm.toFixed(0)} < ${balanced.toFixed(0)} < ${open.toFixed(0)} Hz`,
    );
  }
  for (const b of byIntensity) {
    console.log(
      `${mark(b.crest.punchy > b.crest.smooth)}  ${MASTERING_INTENSITY_NAMES[b.intensity]}: crest punchy > smooth: ` +
        `${b.crest.punchy.toFixed(2)} > ${b.crest.smooth.toFixed(2)} dB`,
    );
  }
  console.log(
    `${mark(goals.speed)}  each 4-minute master ≤ ${SPEED_GOAL_SECONDS} s: max ${times[times.length - 1].toFixed(2)} s, median ${median(times).toFixed(2)} s ` +
      `(cpu median ${median(cpuTimes).toFixed(1)} s; load average ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end)`,
  );
  console.log(`${mark(goals.format)}  output 24-bit FLAC at the input's rate and channels`);
  console.log(
    JSON.stringify({
      benchmark: 'mastering',
      song: path.relative(ROOT, song),
      seconds: round(probe.durationSeconds, 2),
      goalsMet: Object.values(goals).every(Boolean),
      goals,
      maxLoudnessMissLu: round(Math.max(...loudnessMisses), 3),
      maxTruePeakDbtp: round(maxTruePeak, 3),
      clippedSamples: totalClipped,
      timeSeconds: { max: round(times[times.length - 1], 2), median: round(median(times), 2), min: round(times[0], 2) },
      cpuSeconds: { max: round(cpuTimes[cpuTimes.length - 1], 2), median: round(median(cpuTimes), 2) },
      loadAverage: { start: loadAtStart.map((l) => round(l, 2)), end: loadAtEnd.map((l) => round(l, 2)) },
      masters: rows.map((r) => ({
        style: r.style,
        intensity: r.intensity,
        lufs: round(r.after.integratedLufs, 2),
        lra: round(r.after.loudnessRangeLu, 1),
        truePeak: round(r.after.truePeakDbtp, 2),
        centroidHz: round(r.centroidHz, 0),
        crestDb: round(r.crestDb, 2),
        seconds: round(r.seconds, 2),
        stageMs: r.engine.stageMs,
      })),
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
