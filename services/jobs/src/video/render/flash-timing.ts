import { startFfmpeg } from '@stemdeck/audio';
import type { BeatFrame } from './beat-flash';

/** The size frames are read at to measure their brightness (plenty for a mean). */
const PROBE_WIDTH = 64;
const PROBE_HEIGHT = 36;

/** Mean luma (0–255) of every frame of a video, in order, read from the file ffmpeg decoded. */
export async function measureFrameBrightness(path: string, options: { ffmpeg?: string; signal?: AbortSignal } = {}): Promise<Float64Array> {
  const chunks: Buffer[] = [];
  await startFfmpeg({
    args: ['-i', path, '-map', '0:v:0', '-vf', `scale=${PROBE_WIDTH}:${PROBE_HEIGHT},format=gray`, '-f', 'rawvideo', 'pipe:1'],
    ffmpeg: options.ffmpeg,
    onStdout: (chunk) => chunks.push(chunk),
    signal: options.signal,
  }).done;
  const bytes = Buffer.concat(chunks);
  const frameBytes = PROBE_WIDTH * PROBE_HEIGHT;
  const brightness = new Float64Array(Math.floor(bytes.length / frameBytes));
  for (let frame = 0; frame < brightness.length; frame++) {
    let sum = 0;
    for (let i = frame * frameBytes; i < (frame + 1) * frameBytes; i++) sum += bytes[i]!;
    brightness[frame] = sum / frameBytes;
  }
  return brightness;
}

export interface FlashTiming {
  /** Per beat: the brightest frame within half a beat of the beat's frame, minus the beat's frame. */
  offsets: number[];
  maxErrorFrames: number;
  meanErrorFrames: number;
}

/**
 * How far each beat's flash landed from the beat: for each analysed beat, the brightest frame within half a beat
 * either side of its frame (the previous and next beats' flashes stay outside), in frames from it.
 */
export function flashTiming(brightness: Float64Array, beats: readonly BeatFrame[], framesPerBeat: number): FlashTiming {
  const reach = Math.max(1, Math.floor(framesPerBeat / 2) - 1);
  const offsets = beats.map(({ frame }) => {
    let best = frame;
    for (let other = Math.max(0, frame - reach); other <= Math.min(brightness.length - 1, frame + reach); other++) {
      if (brightness[other]! > brightness[best]!) best = other;
    }
    return best - frame;
  });
  const errors = offsets.map(Math.abs);
  return {
    offsets,
    maxErrorFrames: errors.length ? Math.max(...errors) : 0,
    meanErrorFrames: errors.length ? errors.reduce((sum, error) => sum + error, 0) / errors.length : 0,
  };
}
