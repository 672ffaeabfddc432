import { VIDEO_CHORUS_SECONDS, type VideoDuration } from '@stemdeck/proto/vocabulary';
import type { Job, VideoFacts } from '../../mastering/jobsApi';

/** Plain functions for the video generation panel (no React): labels, what is sent, the time left. */

/** m:ss (a song's length, a span's ends). */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** The duration choices with the loaded song's real length ('Full Track (4:23)'); a chorus of a short song is the song. */
export function durationLabels(songSeconds: number | null): Record<VideoDuration, string> {
  const chorus = songSeconds !== null ? Math.min(songSeconds, VIDEO_CHORUS_SECONDS) : VIDEO_CHORUS_SECONDS;
  return {
    full: songSeconds !== null ? `Full Track (${clock(songSeconds)})` : 'Full Track',
    chorus: `Chorus Loop (${clock(chorus)})`,
    custom: 'Custom Range',
  };
}

/** m:ss or plain seconds ("1:05", "65", "65.5") as seconds; null when it is neither. */
export function parseClock(text: string): number | null {
  const trimmed = text.trim();
  const match = /^(?:(\d+):([0-5]?\d(?:\.\d+)?)|(\d+(?:\.\d+)?))$/.exec(trimmed);
  if (!match) return null;
  return match[3] !== undefined ? Number(match[3]) : Number(match[1]) * 60 + Number(match[2]);
}

export interface CustomRange {
  start: string;
  end: string;
}

/** Why a custom range cannot be sent (in plain words), or its seconds. */
export function customSpan(range: CustomRange, songSeconds: number | null): { startSeconds: number; endSeconds: number } | string {
  const startSeconds = parseClock(range.start);
  const endSeconds = parseClock(range.end);
  if (startSeconds === null || endSeconds === null) return 'Enter the start and end as m:ss.';
  if (endSeconds <= startSeconds) return 'The end must come after the start.';
  if (songSeconds !== null && endSeconds > songSeconds + 0.01) return `The end must be within the song (${clock(songSeconds)}).`;
  return { startSeconds, endSeconds };
}

/** One reading of a running job's progress and when it was seen (ms). */
export interface ProgressSample {
  at: number;
  progress: number;
}

/** Readings older than this before the newest are not used: the rate follows the render as it is now. */
const RATE_WINDOW_MS = 20_000;

/**
 * Seconds left at the measured rate: the progress gained over the last readings (up to RATE_WINDOW_MS back)
 * divided by the time they took, applied to what remains, rounded up. Null until the progress has moved
 * between two readings (nothing measured yet).
 */
export function secondsRemaining(samples: readonly ProgressSample[]): number | null {
  const last = samples.at(-1);
  if (!last) return null;
  const first = samples.find((sample) => last.at - sample.at <= RATE_WINDOW_MS && sample.progress < last.progress);
  if (!first || last.at <= first.at) return null;
  const perMs = (last.progress - first.progress) / (last.at - first.at);
  return Math.max(0, Math.ceil((100 - last.progress) / perMs / 1000));
}

/** A finished video job's one output with its facts, when it has one. */
export function videoOutput(job: Job | null): { url: string; facts: VideoFacts } | null {
  const output = job?.status === 'completed' ? job.result?.outputs.find((candidate) => candidate.video) : undefined;
  return output?.video ? { url: output.url, facts: output.video } : null;
}

const RESOLUTION_WORDS: Record<VideoFacts['resolution'], string> = { '720p': '720p', '1080p': '1080p', '4k': '4K' };

/** "0:42–1:12 of the song · 1080p (1920×1080) · 30 fps". */
export function spanLine(facts: VideoFacts): string {
  return `${clock(facts.startSeconds)}–${clock(facts.endSeconds)} of the song · ${RESOLUTION_WORDS[facts.resolution]} (${facts.width}×${facts.height}) · ${facts.fps} fps`;
}

/** "Look: neon colours, bars, pulse motion" (the local renderer's choice from the prompt); a cloud clip: its loop. */
export function lookLine(facts: VideoFacts): string | null {
  if (facts.look) return `Look: ${facts.look.palette} colours, ${facts.look.mode}, ${facts.look.motion} motion`;
  if (facts.clipSeconds) return `A ${facts.clipSeconds}-second generated clip, looped to the music`;
  return null;
}
