/**
 * Enhancement benchmark: the evaluation set's vocal stems (the first tracks', 15 s from 10 s in, stereo 44.1 kHz)
 * mixed with white and with pink noise (ffmpeg anoisesrc, fixed seeds) at 5 and 10 dB SNR (RMS over the excerpt),
 * then denoised by the local engine (enhanceAudioFile with noiseReduction). Prints per condition the SI-SDR of the
 * noisy input and of the enhanced output against the clean vocal, the improvement and the time, then the average
 * improvement against the goal (≥ 5 dB) as PASS/FAIL, and a JSON summary line.
 *
 *   npm run bench:enhance -- [--dir .data/eval-set] [--tracks N] [--keep DIR]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { decodeAudio, enhanceAudioFile, siSdr, type StereoAudio } from '@stemdeck/audio';
import { loadEvalSet } from './eval-set/load';
import { DEFAULT_EVAL_SET_DIR, stemFile } from './eval-set/meta';

const GOAL_DB = 5;
const START_SECONDS = 10;
const EXCERPT_SECONDS = 15;
const COLORS = ['white', 'pink'] as const;
const SNRS = [5, 10];

function parseArgs(argv: string[]): { dir: string; tracks: number; keep?: string } {
  const args: { dir: string; tracks: number; keep?: string } = { dir: DEFAULT_EVAL_SET_DIR, tracks: 3 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') args.dir = argv[++i];
    else if (argv[i] === '--tracks') args.tracks = Number(argv[++i]);
    else if (argv[i] === '--keep') args.keep = argv[++i];
    else throw new Error(`unknown argument ${argv[i]} (expected --dir PATH, --tracks N, --keep DIR)`);
  }
  return args;
}

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
}

function rms(audio: StereoAudio): number {
  let sum = 0;
  for (const channel of [audio.left, audio.right]) for (const v of channel) sum += v * v;
  return Math.sqrt(sum / (audio.left.length + audio.right.length));
}

interface Row {
  track: string;
  color: string;
  snr: number;
  inputSdr: number;
  outputSdr: number;
  seconds: number;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const tracks = loadEvalSet(args.dir).slice(0, args.tracks);
  const work = args.keep ?? mkdtempSync(path.join(tmpdir(), 'stemdeck-enhance-bench-'));
  const rows: Row[] = [];
  try {
    for (const track of tracks) {
      const clean = path.join(work, `${track.id}.clean.wav`);
      ffmpeg(['-ss', String(START_SECONDS), '-t', String(EXCERPT_SECONDS), '-i', path.join(track.dir, stemFile('vocals')), '-c:a', 'pcm_f32le', clean]);
      const reference = await decodeAudio(clean);
      const cleanRms = rms(reference);
      for (const color of COLORS) {
        const noise = path.join(work, `${track.id}.${color}.wav`);
        ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=color=${color}:amplitude=0.5:r=${reference.sampleRate}:d=${EXCERPT_SECONDS}:seed=11`, '-ac', '2', '-c:a', 'pcm_f32le', noise]);
        const noiseRms = rms(await decodeAudio(noise));
        for (const snr of SNRS) {
          const noisy = path.join(work, `${track.id}.${color}.${snr}dB.wav`);
          const gain = cleanRms / Math.pow(10, snr / 20) / noiseRms;
          ffmpeg([
            '-i', clean, '-i', noise, '-filter_complex', `[1]volume=${gain.toFixed(8)}[n];[0][n]amix=inputs=2:normalize=0:duration=first`,
            '-c:a', 'pcm_f32le', noisy,
          ]);
          const enhanced = path.join(work, `${track.id}.${color}.${snr}dB.enhanced.wav`);
          const started = process.hrtime.bigint();
          await enhanceAudioFile({ input: noisy, output: enhanced, enhancements: { noiseReduction: true } });
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          rows.push({
            track: track.id, color, snr, seconds,
            inputSdr: siSdr(reference, await decodeAudio(noisy)),
            outputSdr: siSdr(reference, await decodeAudio(enhanced)),
          });
        }
      }
    }
  } finally {
    if (!args.keep) rmSync(work, { recursive: true, force: true });
  }

  console.log(`Enhancement benchmark: noiseReduction on ${tracks.length} vocal stem(s), ${EXCERPT_SECONDS} s each`);
  for (const color of COLORS) {
    for (const snr of SNRS) {
      console.log(`\n${color} noise, ${snr} dB SNR`);
      console.log(`${'track'.padEnd(40)} ${'input SI-SDR'.padStart(12)} ${'output SI-SDR'.padStart(13)} ${'improvement'.padStart(11)} ${'time'.padStart(7)}`);
      for (const row of rows.filter((r) => r.color === color && r.snr === snr)) {
        console.log(
          `${row.track.padEnd(40)} ${`${row.inputSdr.toFixed(2)} dB`.padStart(12)} ${`${row.outputSdr.toFixed(2)} dB`.padStart(13)} ` +
            `${`${(row.outputSdr - row.inputSdr).toFixed(2)} dB`.padStart(11)} ${`${row.seconds.toFixed(2)} s`.padStart(7)}`,
        );
      }
    }
  }
  const average = rows.reduce((sum, r) => sum + r.outputSdr - r.inputSdr, 0) / rows.length;
  console.log(`\nAverage SI-SDR improvement: ${average.toFixed(2)} dB (goal >= ${GOAL_DB} dB) ${average >= GOAL_DB ? 'PASS' : 'FAIL'}`);
  console.log(JSON.stringify({ bench: 'enhance', averageImprovementDb: Number(average.toFixed(3)), goalDb: GOAL_DB, pass: average >= GOAL_DB, rows }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
