import type { AudioExportFormat, StemType } from '@stemdeck/proto';

/** A stem as the mix takes it: where its audio is stored and its place in the mixer (dB volume, mute, solo). */
export interface RenderStem {
  type: StemType;
  objectKey: string;
  volume: number;
  muted: boolean;
  soloed: boolean;
}

/** Tags written where the format has them. */
export interface AudioTags {
  title: string;
  bpm: number | null;
  key: string | null;
}

/** Progress of one render, 0–1. */
export type RenderProgress = (fraction: number) => void;

/**
 * Turns stored audio (FLAC/WAV objects) into export files, streaming (no whole song in memory):
 * `convert` one object into `format`; `mix` the stems as the studio's mixer plays them into one file.
 */
export interface AudioRenderer {
  convert(source: { objectKey: string }, format: AudioExportFormat, tags: AudioTags, outPath: string, onProgress?: RenderProgress): Promise<void>;
  mix(stems: readonly RenderStem[], format: AudioExportFormat, tags: AudioTags, outPath: string, onProgress?: RenderProgress): Promise<void>;
}
export const AUDIO_RENDERER = Symbol('AudioRenderer');

/** The file extension each format is saved with. */
export const FORMAT_EXTENSIONS: Readonly<Record<AudioExportFormat, string>> = {
  'wav-24-48': 'wav',
  'wav-16-44': 'wav',
  'aiff-24-48': 'aiff',
  'mp3-320': 'mp3',
  flac: 'flac',
};
