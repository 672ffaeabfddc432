import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { MediaToolError } from '../io/ffmpeg';

/** One ffmpeg process, as the mastering passes run it (see startFfmpeg). */
export interface FfmpegRun {
  /** Arguments after the common ones (`-nostdin -hide_banner -nostats -y -progress pipe:3`, one filter thread). */
  args: string[];
  ffmpeg?: string;
  /** Seconds of media the run's output covers; progress is ffmpeg's out_time against it. */
  durationSeconds?: number;
  /** 0–1, from ffmpeg's `-progress` report (about twice a second), and 1 once the run ends well. */
  onProgress?: (fraction: number) => void;
  /** Every line ffmpeg logs (the measuring filters print their results there). */
  onStderrLine?: (line: string) => void;
  /** Raw bytes ffmpeg writes to pipe:1 (an output written as `pipe:1`). */
  onStdout?: (chunk: Buffer) => void;
  /** Keep pipe:1 as a stream for another process's stdin (FfmpegProcess.stdout) instead. */
  pipeStdout?: boolean;
  /** What ffmpeg reads as pipe:0: another ffmpeg's stdout (the two run side by side, one feeding the other). */
  stdin?: Readable;
  /** Working folder: where the relative `file=` of metadata printers lands (paths in `args` must then be absolute). */
  cwd?: string;
  signal?: AbortSignal;
  /** Wall-clock limit: past it ffmpeg is killed (SIGKILL) and `done` rejects with a MediaToolError that says so. */
  timeoutSeconds?: number;
}

export interface FfmpegProcess {
  /** pipe:1, when `pipeStdout` asked for it: pass it as the next process's `stdin`. */
  stdout: Readable | null;
  done: Promise<void>;
}

/** Lines kept for the error message of a failed run. */
const TAIL_LINES = 30;

/** Runs ffmpeg to the end (see startFfmpeg). */
export function runFfmpeg(run: FfmpegRun): Promise<void> {
  return startFfmpeg(run).done;
}

/**
 * Starts ffmpeg with its machine-readable progress on fd 3 (`-progress pipe:3`, key=value lines ending in
 * `progress=continue|end`), its log split into lines for the caller's parsers (not kept whole: the metadata
 * printers log several lines per 100 ms of audio) and, when asked, pipe:1 streamed to the caller or kept for the
 * next process. `done` rejects with MediaToolError carrying the log's tail when ffmpeg fails, and with the abort
 * reason when `signal` aborts.
 */
export function startFfmpeg(run: FfmpegRun): FfmpegProcess {
  const command = run.ffmpeg ?? 'ffmpeg';
  // One thread per filter graph: ffmpeg's slice threading (biquads, aspectralstats) splits audio frames by channel,
  // and its per-frame wake-ups cost several times the filtering itself (4 biquads over 4 minutes of stereo: 1.5 s
  // of CPU threaded, 0.23 s not). The passes that can run side by side run as separate processes instead.
  const args = [
    '-nostdin', '-hide_banner', '-nostats', '-y', '-progress', 'pipe:3', '-filter_threads', '1', '-filter_complex_threads', '1',
    ...run.args,
  ];
  let stdout: Readable | null = null;
  const done = new Promise<void>((resolve, reject) => {
    run.signal?.throwIfAborted();
    const child = spawn(command, args, {
      stdio: [run.stdin ?? 'ignore', run.onStdout || run.pipeStdout ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      signal: run.signal,
      cwd: run.cwd,
    });
    // The next process holds its own copy of the descriptor; ours would only keep the pipe open.
    if (run.stdin) (run.stdin as Readable & { destroy(): void }).destroy();
    stdout = run.pipeStdout ? child.stdout : null;
    const tail: string[] = [];
    const stderr = new LineSplitter((line) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      run.onStderrLine?.(line);
    });
    const totalUs = (run.durationSeconds ?? 0) * 1e6;
    const progress = new LineSplitter((line) => {
      const match = /^out_time_us=(\d+)/.exec(line);
      if (match && totalUs > 0 && run.onProgress) run.onProgress(Math.min(1, Number(match[1]) / totalUs));
    });
    let timedOut = false;
    const timer =
      run.timeoutSeconds !== undefined && run.timeoutSeconds > 0
        ? setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, run.timeoutSeconds * 1000)
        : undefined;
    if (run.onStdout) child.stdout!.on('data', run.onStdout);
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => progress.push(chunk));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(run.signal?.aborted ? (run.signal.reason ?? err) : err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      stderr.end();
      progress.end();
      if (timedOut) {
        reject(new MediaToolError(`${command} ran past its limit of ${run.timeoutSeconds} s and was stopped`, tail.join('\n')));
        return;
      }
      if (code === 0) {
        run.onProgress?.(1);
        resolve();
        return;
      }
      if (run.signal?.aborted) return; // 'error' already rejected with the abort reason
      reject(new MediaToolError(`${command} exited with ${code}: ${explain(tail)}`, tail.join('\n')));
    });
  });
  return { stdout, done };
}

/**
 * The most telling line of a failed run's log: the first error among its last lines, past the generic ones ffmpeg
 * adds after it ("Error reinitializing filters!", "Conversion failed!").
 */
function explain(tail: string[]): string {
  const generic =
    /^(Conversion failed!|Exiting normally|Error while (filtering|processing the decoded data)|Error reinitializing filters!|Failed to inject frame)/;
  const lines = tail.map((line) => line.trim()).filter((line) => line && !generic.test(line));
  const errors = lines.filter((line) => /error|invalid|no such|not found|does not|cannot|could not|unable|failed/i.test(line));
  return (errors[0] ?? lines.pop() ?? 'no output').slice(0, 400);
}

/** Splits a byte stream into lines (ffmpeg ends its log lines with \n, its stats with \r). */
class LineSplitter {
  private rest = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    const lines = (this.rest + chunk.toString('utf8')).split(/\r\n|\n|\r/);
    this.rest = lines.pop() ?? '';
    for (const line of lines) this.onLine(line);
  }

  end(): void {
    if (this.rest) this.onLine(this.rest);
    this.rest = '';
  }
}

/**
 * Peak and clip count of float samples streamed as f32le (any channel count: it reads them interleaved). A sample
 * counts as clipped at CLIP_LEVEL or beyond.
 */
export class SampleScanner {
  peak = 0;
  clipped = 0;
  samples = 0;
  private carry = Buffer.alloc(0);

  push(chunk: Buffer): void {
    let bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const usable = bytes.length - (bytes.length % 4);
    this.carry = Buffer.from(bytes.subarray(usable));
    // Float32Array needs a 4-aligned offset; pipe chunks usually are, a carried remainder is not.
    if (bytes.byteOffset % 4 !== 0) bytes = Buffer.from(bytes.subarray(0, usable));
    const floats = new Float32Array(bytes.buffer, bytes.byteOffset, usable / 4);
    let { peak, clipped } = this;
    for (let i = 0; i < floats.length; i++) {
      const magnitude = floats[i] < 0 ? -floats[i] : floats[i];
      if (magnitude > peak) peak = magnitude;
      if (magnitude >= CLIP_LEVEL) clipped++;
    }
    this.peak = peak;
    this.clipped = clipped;
    this.samples += floats.length;
  }

  get peakDbfs(): number {
    return toDb(this.peak);
  }
}

/**
 * A sample at or beyond the largest 16-bit code (32767/32768, −0.0003 dBFS) counts as clipped: float overs
 * (|x| ≥ 1.0) and the full-scale codes of 16- and 24-bit files alike (a 24-bit file cannot hold +1.0, so a
 * positive over saved to one reads 0.99999988).
 */
export const CLIP_LEVEL = 32767 / 32768;

export function toDb(linear: number): number {
  return linear > 0 ? 20 * Math.log10(linear) : -Infinity;
}
