import { MediaToolError, probeMedia } from '../../io/ffmpeg';
import { decodeAudioStream } from '../../io/pcm-stream';
import { WavFileWriter, type WavBitDepth } from '../../io/wav';
import { STEM_TYPES, type SeparationProgress, type StemType } from '../../types';
import { separateFastStream } from './stream-separator';

export interface SplitFileOptions {
  bitDepth?: WavBitDepth;
  /** Worker threads (see separateFastStream). */
  threads?: number;
  onProgress?: (progress: SeparationProgress) => void;
}

/**
 * The fast engine from a media file to four WAV files in one pass: ffmpeg decodes in its own process while
 * the segments are separated, and each segment's stems are written as soon as it is done, so decoding,
 * separating and writing overlap and the song is never held whole (not as samples, not as an encoded
 * file). The samples are those FastSeparator.separate gives on the decoded array.
 */
export async function splitFileFast(
  input: string,
  outputs: Record<StemType, string>,
  options: SplitFileOptions = {},
): Promise<{ sampleRate: number; frames: number }> {
  const probe = await probeMedia(input);
  const sampleRate = probe.audio?.sampleRate;
  if (!sampleRate) throw new MediaToolError('No audio stream', '');
  const expectedFrames = probe.durationSeconds ? Math.round(probe.durationSeconds * sampleRate) : undefined;
  const writers = STEM_TYPES.map((type) => new WavFileWriter(outputs[type], sampleRate, options.bitDepth ?? 16));
  try {
    return await separateFastStream(
      decodeAudioStream(input, { probe }),
      async (stems) => STEM_TYPES.forEach((type, k) => writers[k].append(stems[type])),
      { threads: options.threads, expectedFrames, onProgress: options.onProgress },
    );
  } finally {
    for (const writer of writers) writer.close();
  }
}
