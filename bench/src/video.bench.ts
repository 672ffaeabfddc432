/**
 * Music-video benchmark: the local renderer (FfmpegVideoRenderer) on a 4-minute song given as its four stems —
 * the evaluation set's `long-4min` track (120 BPM, its sections known), or, without the set, a song synthesised
 * here with ffmpeg (drums, bass, pad and a lead, verses and louder choruses). Renders:
 *
 *   1. the chorus loop (30 s) at 1080p        goal: ≤ 30 s (≥ 1× real time)
 *   2. the full track (4:00) at 720p          goal: ≤ 240 s
 *   3. 10 s at 4k                             goal: it renders
 *
 * and prints for each: wall time, real-time factor, ffmpeg's CPU time and peak RSS (each ffmpeg run wrapped in
 * /usr/bin/time), the file's size, and the beat-flash timing: every frame's mean brightness read back from the
 * MP4, and for each analysed beat in the span the distance in frames from the beat's frame to the brightest frame
 * within half a beat (goal: ≤ 1 frame). For the chorus, the chosen window and how much of it the song's own
 * chorus sections cover. Wall time depends on what else the machine runs: the load average is printed.
 *
 *   npm run bench:video -- [--song DIR | --synthesise] [--keep DIR]
 *
 * --song: a folder with drums.wav, bass.wav, other.wav, vocals.wav (and optionally meta.json: bpm, sections);
 * --synthesise: the synthesised song even where the evaluation set is present.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { beatFrames } from '@stemdeck/jobs/dist/video/render/beat-flash';
import { FfmpegVideoRenderer } from '@stemdeck/jobs/dist/video/render/ffmpeg-video-renderer';
import { flashTiming, measureFrameBrightness } from '@stemdeck/jobs/dist/video/render/flash-timing';
import { VIDEO_FPS, type RenderedVideo, type VideoRenderRequest } from '@stemdeck/jobs/dist/video/video-renderer.port';
import { DEFAULT_EVAL_SET_DIR } from './eval-set/meta';

const STEMS = ['drums', 'bass', 'other', 'vocals'] as const;
const SONG_SECONDS = 240;
const SYNTH_BPM = 120;

interface Song {
  dir: string;
  source: string;
  bpm: number;
  seconds: number;
  /** [start, end) of the song's chorus sections, when known. */
  choruses?: Array<[number, number]>;
}

interface Case {
  name: string;
  span: VideoRenderRequest['span'];
  resolution: VideoRenderRequest['resolution'];
  prompt: string;
  goalSeconds?: number;
}

function parseArgs(argv: string[]): { song?: string; keep?: string; synthesise: boolean } {
  const args: { song?: string; keep?: string; synthesise: boolean } = { synthesise: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--song') args.song = argv[++i];
    else if (argv[i] === '--keep') args.keep = argv[++i];
    else if (argv[i] === '--synthesise') args.synthesise = true;
  }
  return args;
}

function readSong(dir: string, source: string): Song {
  const metaPath = path.join(dir, 'meta.json');
  const meta = existsSync(metaPath)
    ? (JSON.parse(readFileSync(metaPath, 'utf8')) as { bpm: number; durationSeconds: number; sections?: Array<{ startSeconds: number; kind: string }> })
    : undefined;
  const seconds = meta?.durationSeconds ?? SONG_SECONDS;
  const sections = meta?.sections ?? [];
  const choruses = sections.flatMap((section, i): Array<[number, number]> =>
    section.kind === 'chorus' ? [[section.startSeconds, sections[i + 1]?.startSeconds ?? seconds]] : [],
  );
  return { dir, source, bpm: meta?.bpm ?? SYNTH_BPM, seconds, choruses: choruses.length ? choruses : undefined };
}

/**
 * Four stems of a 4-minute 120 BPM song made with ffmpeg's aevalsrc: 16-bar sections alternating verse and chorus
 * (the chorus louder, with hats, a busier bass and a lead), chords per bar from two progressions.
 */
function synthesiseSong(dir: string): Song {
  const beat = 60 / SYNTH_BPM;
  const bar = 4 * beat;
  const sectionBars = 16;
  const chorusOn = `gte(mod(floor(t/${bar * sectionBars}),2),1)`; // odd sections are choruses
  // Chord roots per bar (Hz): verse A–F–C–G, chorus C–G–A–F.
  const root = (progression: number[]) =>
    progression.map((hz, i) => `${hz}*eq(mod(floor(t/${bar}),4),${i})`).join('+');
  const verseRoot = root([110, 87.31, 130.81, 98]);
  const chorusRoot = root([130.81, 98, 110, 87.31]);
  const chordRoot = `(if(${chorusOn},${chorusRoot},${verseRoot}))`;
  const sources: Record<(typeof STEMS)[number], string> = {
    // Kick on every beat (a falling sine), hats on the off-beats in the chorus.
    drums:
      `0.9*sin(2*PI*(50+90*exp(-mod(t,${beat})*30))*mod(t,${beat}))*exp(-mod(t,${beat})*9)` +
      `+${chorusOn}*0.25*(random(0)*2-1)*exp(-mod(t+${beat / 2},${beat})*60)`,
    bass: `(0.35+0.2*${chorusOn})*sin(2*PI*${chordRoot}*t)*(0.6+0.4*exp(-mod(t,${beat / 2})*6))`,
    other: `(0.08+0.08*${chorusOn})*(sin(2*PI*2*${chordRoot}*t)+sin(2*PI*2*1.26*${chordRoot}*t)+sin(2*PI*2*1.5*${chordRoot}*t))`,
    vocals: `${chorusOn}*0.2*sin(2*PI*4*${chordRoot}*t+2*sin(2*PI*5*t))*(0.5+0.5*sin(2*PI*t/${beat * 2}))`,
  };
  for (const stem of STEMS) {
    execFileSync('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc='${sources[stem]}':s=44100:d=${SONG_SECONDS}`,
      '-ac', '2', '-c:a', 'pcm_s16le', path.join(dir, `${stem}.wav`),
    ]);
  }
  const choruses: Array<[number, number]> = [];
  for (let start = bar * sectionBars; start < SONG_SECONDS; start += 2 * bar * sectionBars) choruses.push([start, Math.min(SONG_SECONDS, start + bar * sectionBars)]);
  return { dir, source: 'synthesised with ffmpeg (drums, bass, pad, lead)', bpm: SYNTH_BPM, seconds: SONG_SECONDS, choruses };
}

/** An ffmpeg that reports each run's wall, CPU and peak RSS to `log` (GNU time), for the renderer to call. */
function timedFfmpeg(dir: string, log: string): string {
  const wrapper = path.join(dir, 'ffmpeg-timed.sh');
  writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -a -o '${log}' -f '%e %U %S %M' ffmpeg "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

interface RunFigures {
  wall: number;
  cpu: number;
  peakRssMb: number;
}

function readTimes(log: string): RunFigures {
  const rows = existsSync(log)
    ? readFileSync(log, 'utf8').split('\n').map((line) => line.trim().split(' ').map(Number)).filter((row) => row.length === 4 && row.every(Number.isFinite))
    : [];
  return {
    wall: rows.reduce((sum, row) => sum + row[0]!, 0),
    cpu: rows.reduce((sum, row) => sum + row[1]! + row[2]!, 0),
    peakRssMb: rows.reduce((peak, row) => Math.max(peak, row[3]! / 1024), 0),
  };
}

const overlap = (a: [number, number], b: [number, number]) => Math.max(0, Math.min(a[1], b[1]) - Math.max(a[0], b[0]));

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const work = args.keep ? path.resolve(args.keep) : mkdtempSync(path.join(tmpdir(), 'video-bench-'));
  mkdirSync(work, { recursive: true });
  try {
    const evalSong = path.join(DEFAULT_EVAL_SET_DIR, 'long-4min');
    let song: Song;
    if (args.song) song = readSong(path.resolve(args.song), args.song);
    else if (!args.synthesise && STEMS.every((stem) => existsSync(path.join(evalSong, `${stem}.wav`)))) song = readSong(evalSong, 'eval set long-4min');
    else {
      const dir = path.join(work, 'song');
      mkdirSync(dir, { recursive: true });
      const started = Date.now();
      song = synthesiseSong(dir);
      console.log(`song synthesised in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const ffmpegVersion = execFileSync('ffmpeg', ['-version']).toString().split('\n')[0];
    console.log(`video bench: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${ffmpegVersion}`);
    console.log(`song: ${song.source}, ${song.seconds} s at ${song.bpm} BPM, 4 stems (${STEMS.join(', ')})`);

    const cases: Case[] = [
      { name: 'chorus 30 s @ 1080p', span: { kind: 'chorus' }, resolution: '1080p', prompt: 'neon club night, waveform, pulse', goalSeconds: 30 },
      { name: 'full 4:00 @ 720p', span: { kind: 'full' }, resolution: '720p', prompt: 'calm ocean spectrum', goalSeconds: 240 },
      { name: '10 s @ 4k', span: { kind: 'custom', startSeconds: 60, endSeconds: 70 }, resolution: '4k', prompt: 'sunset scope techno' },
    ];
    const summary: Record<string, unknown>[] = [];
    let failed = false;
    for (const [index, testCase] of cases.entries()) {
      const caseDir = path.join(work, `case-${index}`);
      mkdirSync(caseDir, { recursive: true });
      const log = path.join(caseDir, 'ffmpeg-times.txt');
      const renderer = new FfmpegVideoRenderer({ ffmpeg: timedFfmpeg(caseDir, log) });
      const loadBefore = loadavg()[0]!;
      const started = process.hrtime.bigint();
      let lastProgress = 0;
      const video: RenderedVideo = await renderer.render({
        stems: STEMS.map((stem) => ({ input: path.join(song.dir, `${stem}.wav`), gainDb: 0 })),
        songSeconds: song.seconds,
        bpm: song.bpm,
        beatsPerBar: 4,
        span: testCase.span,
        resolution: testCase.resolution,
        prompt: testCase.prompt,
        scratchDir: caseDir,
        onProgress: (fraction) => (lastProgress = fraction),
        signal: new AbortController().signal,
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const times = readTimes(log);
      const spanSeconds = video.endSeconds - video.startSeconds;
      const frames = Math.round(spanSeconds * VIDEO_FPS);
      const brightness = await measureFrameBrightness(video.path);
      const beats = beatFrames({ bpm: song.bpm, beatsPerBar: 4, startSeconds: video.startSeconds, fps: VIDEO_FPS }, frames);
      const timing = flashTiming(brightness, beats, (60 / song.bpm) * VIDEO_FPS);
      const exact = timing.offsets.filter((offset) => offset === 0).length;
      const sizeMb = statSync(video.path).size / 1e6;
      const chorusCover =
        testCase.span.kind === 'chorus' && song.choruses
          ? song.choruses.reduce((sum, range) => sum + overlap(range, [video.startSeconds, video.endSeconds]), 0) / spanSeconds
          : undefined;

      console.log(`\n${testCase.name}  (prompt "${testCase.prompt}" → ${video.look.palette}/${video.look.mode}/${video.look.motion})`);
      console.log(`  span           ${video.startSeconds.toFixed(2)}–${video.endSeconds.toFixed(2)} s (${spanSeconds.toFixed(2)} s, ${frames} frames, ${video.width}x${video.height})`);
      if (chorusCover !== undefined) console.log(`  chorus cover   ${(chorusCover * 100).toFixed(0)} % of the window lies in the song's chorus sections`);
      console.log(`  render         ${seconds.toFixed(1)} s wall, real-time factor ${(spanSeconds / seconds).toFixed(2)}× (load ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`);
      console.log(`  ffmpeg         ${times.cpu.toFixed(1)} s CPU, peak RSS ${times.peakRssMb.toFixed(0)} MB; progress ended at ${lastProgress.toFixed(2)}`);
      console.log(`  file           ${sizeMb.toFixed(1)} MB (${((sizeMb * 8) / spanSeconds).toFixed(1)} Mb/s), ${brightness.length} frames decoded`);
      console.log(`  beat flashes   ${beats.length} beats: max ${timing.maxErrorFrames} frame(s), mean ${timing.meanErrorFrames.toFixed(2)} frames from the beat; ${exact}/${beats.length} on the beat's own frame`);
      const speedOk = testCase.goalSeconds === undefined || seconds <= testCase.goalSeconds;
      const flashOk = timing.maxErrorFrames <= 1;
      const framesOk = brightness.length === frames;
      if (testCase.goalSeconds !== undefined) console.log(`  ${speedOk ? 'PASS' : 'FAIL'} speed: ${seconds.toFixed(1)} s ≤ ${testCase.goalSeconds} s`);
      console.log(`  ${flashOk ? 'PASS' : 'FAIL'} flashes within 1 frame of the beats`);
      console.log(`  ${framesOk ? 'PASS' : 'FAIL'} ${brightness.length} frames = span × ${VIDEO_FPS}`);
      failed ||= !speedOk || !flashOk || !framesOk;
      summary.push({
        case: testCase.name,
        resolution: testCase.resolution,
        startSeconds: video.startSeconds,
        endSeconds: video.endSeconds,
        wallSeconds: Number(seconds.toFixed(2)),
        realTimeFactor: Number((spanSeconds / seconds).toFixed(2)),
        ffmpegCpuSeconds: Number(times.cpu.toFixed(1)),
        ffmpegPeakRssMb: Math.round(times.peakRssMb),
        sizeMb: Number(sizeMb.toFixed(1)),
        beats: beats.length,
        flashMaxErrorFrames: timing.maxErrorFrames,
        flashMeanErrorFrames: Number(timing.meanErrorFrames.toFixed(3)),
        chorusCover: chorusCover === undefined ? undefined : Number(chorusCover.toFixed(2)),
        look: video.look,
      });
    }
    console.log(`\n${JSON.stringify({ bench: 'video', song: song.source, results: summary })}`);
    if (failed) process.exitCode = 1;
  } finally {
    if (!args.keep) rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
