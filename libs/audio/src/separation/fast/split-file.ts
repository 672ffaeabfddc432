import { decodeAudio } from '../../io/ffmpeg';
import { WavFileWriter, type WavBitDepth } from '../../io/wav';
import { STEM_TYPES, type SeparationProgress, type StemType } from '../../types';
import { FastSeparator } from './fast-separator';

export interface SplitFileOptions {
  bitDepth?: WavBitDepth;
  /** Worker threads (see FastSeparatorOptions). */
  threads?: number;
  onProgress?: (progress: SeparationProgress) => void;
}

/**
 * The fast engine from a media file to four WAV files: the file is decoded whole, and while the worker
 * threads separate the segments this thread encodes and writes each segment's stems the moment it is done
 * (at its own place in the files), so only the last segment's writing is left when the separation ends.
 * The samples are FastSeparator.separate's. (The media service streams instead, for bounded memory on
 * long uploads; for a 4-minute song that costs more CPU than this, and the whole song fits in memory.)
 */
export async function splitFileFast(
  input: string,
  outputs: Record<StemType, string>,
  options: SplitFileOptions = {},
): Promise<{ sampleRate: number; frames: number }> {
  // Decoded straight onto shared memory, which the separator's threads read as it is.
  const mixture = await decodeAudio(input, { shared: true });
  const { sampleRate } = mixture;
  const writers = STEM_TYPES.map((type) => new WavFileWriter(outputs[type], sampleRate, options.bitDepth ?? 16));
  try {
    await new FastSeparator({ threads: options.threads }).separate(mixture, options.onProgress, (from, to, stems) =>
      STEM_TYPES.forEach((type, k) => writers[k].writeAt(from, stems[type], from, to)),
    );
  } finally {
    for (const writer of writers) writer.close();
  }
  return { sampleRate, frames: mixture.left.length };
}
