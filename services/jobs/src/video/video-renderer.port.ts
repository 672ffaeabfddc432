/**
 * The local music-video renderer's contract (render/ implements it; the video job runner and the Runway
 * adapter's soundtrack step use it). The song is the project's sounding stems at their saved mix, read by
 * ffmpeg over urls; the beat grid is the studio's: beat n at n × 60 / bpm seconds from the start of the song.
 */
export type VideoResolution = '720p' | '1080p' | '4k';

export const VIDEO_SIZES: Record<VideoResolution, { width: number; height: number }> = {
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
  '4k': { width: 3840, height: 2160 },
};

/** Frames per second of every rendered video. */
export const VIDEO_FPS = 30;

/** A chorus loop is this long (or the whole song when it is shorter). */
export const CHORUS_SECONDS = 30;

export interface VideoStemInput {
  /** A url (presigned) or local path ffmpeg reads. */
  input: string;
  /** The stem's mixer volume in dB (muted stems are not passed). */
  gainDb: number;
}

/** What the prompt's words chose: deterministic for the same prompt. */
export interface VideoLook {
  /** e.g. 'neon', 'sunset', 'ocean', 'mono'… */
  palette: string;
  /** e.g. 'spectrum', 'waves', 'scope', 'bars'… the audio-reactive layer. */
  mode: string;
  /** e.g. 'calm', 'drift', 'pulse', 'strobe'. */
  motion: string;
}

export interface VideoRenderRequest {
  stems: readonly VideoStemInput[];
  /** The song's length in seconds (the project's analysed duration). */
  songSeconds: number;
  /** The analysed tempo; beats fall at n × 60 / bpm from 0 s. */
  bpm: number;
  beatsPerBar: number;
  /** Which part of the song: the whole song, the chosen chorus (CHORUS_SECONDS), or [start, end) seconds. */
  span: { kind: 'full' } | { kind: 'chorus' } | { kind: 'custom'; startSeconds: number; endSeconds: number };
  resolution: VideoResolution;
  prompt: string;
  /** An empty folder the renderer may use; the caller removes it. */
  scratchDir: string;
  /** 0–1 as frames are encoded. */
  onProgress(fraction: number): void;
  /** Aborted: stop ffmpeg at once and reject. */
  signal: AbortSignal;
}

export interface RenderedVideo {
  /** H.264/AAC MP4 (faststart) inside scratchDir. */
  path: string;
  contentType: 'video/mp4';
  width: number;
  height: number;
  fps: number;
  /** The rendered part of the song, in song seconds. */
  startSeconds: number;
  endSeconds: number;
  look: VideoLook;
}

export interface VideoRenderer {
  render(request: VideoRenderRequest): Promise<RenderedVideo>;
}
