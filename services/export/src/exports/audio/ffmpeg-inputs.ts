import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { MediaToolError } from '@stemdeck/audio';

/**
 * How long ffmpeg/ffprobe may wait on stored audio. Stems are read over presigned HTTP URLs: a connection that
 * ends early must fail the read (ffmpeg otherwise logs "Input/output error", exits 0 and leaves a shorter file),
 * and one that stalls must not hold an export for ever.
 */
export interface ReadLimits {
  /** Longest wait for bytes on one HTTP read before it fails (ffmpeg's `rw_timeout`). */
  readTimeoutSeconds: number;
  /** Longest pause between HTTP reconnect attempts after a network error (ffmpeg's `reconnect_delay_max`). */
  reconnectDelayMaxSeconds: number;
  /** The least time a whole ffmpeg/ffprobe run is given; longer songs get twice their length (see runTimeoutSeconds). */
  minRunSeconds: number;
  /** The run limit when the length of the audio is not known (a FLAC streamed into storage has none in its header). */
  unknownLengthRunSeconds: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  readTimeoutSeconds: 30,
  reconnectDelayMaxSeconds: 10,
  minRunSeconds: 120,
  unknownLengthRunSeconds: 30 * 60,
};

const isHttp = (url: string) => /^https?:\/\//i.test(url);

/**
 * Global options of every ffmpeg run that reads stored audio: `-xerror` makes a read or decode error end the run
 * with a failure (ffmpeg 5.1 otherwise treats a dropped connection as the end of the input and exits 0).
 */
export const FAIL_ON_READ_ERROR = ['-xerror'];

/**
 * `-i url` with the HTTP input options before it: reconnect on a network error (ranged, from where it stopped),
 * and fail a read that waits longer than the limit. Local paths (tests, tools) get `-i` alone: the file protocol
 * has no reconnect options and ffmpeg refuses options it cannot apply.
 */
export function inputArgs(url: string, limits: ReadLimits): string[] {
  if (!isHttp(url)) return ['-i', url];
  return [
    '-reconnect', '1', '-reconnect_on_network_error', '1', '-reconnect_delay_max', String(limits.reconnectDelayMaxSeconds),
    '-rw_timeout', String(Math.round(limits.readTimeoutSeconds * 1e6)),
    '-i', url,
  ];
}

/** ffprobe's input options for a URL (it probes the header only: no reconnecting, the read timeout alone). */
export function probeInputArgs(url: string, limits: ReadLimits): string[] {
  return isHttp(url) ? ['-rw_timeout', String(Math.round(limits.readTimeoutSeconds * 1e6)), url] : [url];
}

/** How long one run over `durationSeconds` of audio may take: twice the song, at least minRunSeconds. */
export function runTimeoutSeconds(durationSeconds: number, limits: ReadLimits): number {
  if (!(durationSeconds > 0)) return Math.max(limits.minRunSeconds, limits.unknownLengthRunSeconds);
  return Math.max(limits.minRunSeconds, durationSeconds * 2);
}

/** execFile with a time limit: the tool is killed (SIGKILL) when it runs past it, and the error says so. */
export function execTool(tool: string, args: string[], timeoutSeconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { timeout: timeoutSeconds * 1000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) {
        resolve(stdout);
        return;
      }
      const log = String(stderr ?? '');
      if ((error as Error & { killed?: boolean }).killed) {
        reject(new MediaToolError(`${tool} ran past its limit of ${timeoutSeconds} s and was stopped (storage stopped sending?)`, log));
        return;
      }
      reject(new MediaToolError(`${tool} failed: ${(log || error.message).trim().split('\n').pop()}`, log));
    });
  });
}

/**
 * The length of a local audio file: where its last packet ends. Not its header's duration: a FLAC whose frames
 * were copied keeps its source's header, whatever number of frames followed it; the header is the fallback for a
 * file ffprobe lists no packets of.
 */
export async function measuredDuration(path: string, ffprobe: string, timeoutSeconds: number): Promise<number> {
  const packets = await execTool(
    ffprobe,
    ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', path],
    timeoutSeconds,
  );
  const last = packets.trim().split('\n').pop() ?? '';
  const [pts, duration] = last.split(',').map((field) => Number(field || Number.NaN));
  if (Number.isFinite(pts) && Number.isFinite(duration)) return pts + duration;
  const header = await execTool(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path], timeoutSeconds);
  return Number(header.trim()) || 0;
}

/**
 * A failed read told in words: ffmpeg's first error line is often the decoder's complaint about the half frame it
 * was left with ("invalid residual"), not the connection that caused it.
 */
export function explainReadFailure(error: unknown, limits: ReadLimits): unknown {
  if (!(error instanceof MediaToolError)) return error;
  if (/Connection timed out/i.test(error.stderr)) {
    return new MediaToolError(`Storage stopped sending the stem: no data for ${limits.readTimeoutSeconds} s (read timed out)`, error.stderr);
  }
  if (/Stream ends prematurely|Input\/output error|Connection reset/i.test(error.stderr)) {
    return new MediaToolError('The connection to storage ended before the stem was read whole (Input/output error)', error.stderr);
  }
  return error;
}

/** What a finished output is held to. */
export interface ExpectedLength {
  /** The length the output must have, from the inputs' headers; 0 when none is known (nothing to hold it to). */
  seconds: number;
  /** Whether `seconds` is the whole of it (every input's length known) or only the least it may be. */
  exact: boolean;
  /** How far the output may be from it: a sample or two of resampling, or an mp3's encoder delay and padding. */
  toleranceSeconds: number;
}

/** An MPEG-1 Layer III frame; LAME adds its delay (576 + 529 samples) and pads the last frame. */
const MP3_FRAME = 1152;

/** The tolerance for an output at `rate`: 2 samples (and the header's microsecond rounding), or 3 mp3 frames. */
export function lengthTolerance(mp3: boolean, rate: number): number {
  return mp3 ? (3 * MP3_FRAME) / rate : 2 / rate + 0.001;
}

/**
 * Holds a finished output to the length its inputs promised: a shorter (or longer) file is deleted and the run
 * fails, so a read cut short that ffmpeg did not notice is never stored as a complete export.
 */
export async function verifyOutputLength(path: string, expected: ExpectedLength, ffprobe: string, timeoutSeconds: number): Promise<void> {
  if (!(expected.seconds > 0)) return;
  const actual = await measuredDuration(path, ffprobe, timeoutSeconds);
  const short = actual < expected.seconds - expected.toleranceSeconds;
  const long = expected.exact && actual > expected.seconds + expected.toleranceSeconds;
  if (short || long) {
    await rm(path, { force: true });
    throw new MediaToolError(
      `The rendered audio is ${actual.toFixed(3)} s long where its source is ${expected.seconds.toFixed(3)} s: the source was not read whole`,
      '',
    );
  }
}
