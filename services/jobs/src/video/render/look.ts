import type { VideoLook } from '../video-renderer.port';

/**
 * How a video looks, chosen from the style prompt's words: a palette (background and layer colours), a mode (the
 * audio-reactive layer drawn from the song) and a motion (how the background moves and how hard the beats flash).
 * Deterministic: the same prompt gives the same look. Each of the three is decided on its own: the first keyword of
 * its table found in the prompt (tables are tried in order, so 'neon ocean' is neon), otherwise a stable hash of
 * the whole prompt picks one, so two different prompts without keywords still tend to differ.
 */

export const VIDEO_PALETTES = ['neon', 'ocean', 'sunset', 'forest', 'mono', 'pastel'] as const;
export const VIDEO_MODES = ['waves', 'bars', 'spectrum', 'scope'] as const;
export const VIDEO_MOTIONS = ['calm', 'drift', 'pulse', 'strobe'] as const;

export type VideoPalette = (typeof VIDEO_PALETTES)[number];
export type VideoMode = (typeof VIDEO_MODES)[number];
export type VideoMotion = (typeof VIDEO_MOTIONS)[number];

/** Words (prefixes: 'glow' matches 'glowing') that choose each palette. */
const PALETTE_WORDS: ReadonlyArray<readonly [VideoPalette, readonly string[]]> = [
  ['neon', ['neon', 'cyberpunk', 'cyber', 'synthwave', 'vaporwave', 'retrowave', 'glow', 'laser', 'club', 'futur']],
  ['ocean', ['ocean', 'water', 'underwater', 'marine', 'aqua', 'blue', 'rain', 'ice', 'winter', 'night']],
  ['sunset', ['fire', 'sunset', 'sunrise', 'warm', 'flame', 'lava', 'desert', 'summer', 'gold', 'orange', 'red', 'heat']],
  ['forest', ['forest', 'nature', 'green', 'jungle', 'tree', 'leaf', 'leaves', 'garden', 'earth', 'moss']],
  ['mono', ['noir', 'black and white', 'monochrome', 'mono', 'grey', 'gray', 'minimal', 'dark', 'industrial']],
  ['pastel', ['pastel', 'dream', 'candy', 'soft', 'pink', 'cloud', 'lofi', 'lo-fi', 'cute', 'bubble']],
];

const MODE_WORDS: ReadonlyArray<readonly [VideoMode, readonly string[]]> = [
  ['spectrum', ['spectrum', 'spectrogram', 'frequenc', 'aurora', 'galaxy', 'space', 'cosmic', 'nebula']],
  ['bars', ['bars', 'equalizer', 'equaliser', 'eq ', 'meter', 'city', 'skyline', 'grid', 'block']],
  ['scope', ['scope', 'oscilloscope', 'lissajous', 'vector', 'geometr', 'abstract', 'psychedel', 'trip', 'kaleido']],
  ['waves', ['waveform', 'wave', 'line', 'string', 'flow', 'ocean', 'water', 'river']],
];

const MOTION_WORDS: ReadonlyArray<readonly [VideoMotion, readonly string[]]> = [
  ['strobe', ['strobe', 'rave', 'techno', 'hard', 'intense', 'aggressive', 'glitch', 'dubstep', 'drum and bass', 'dnb', 'punk', 'metal']],
  ['calm', ['calm', 'ambient', 'chill', 'slow', 'gentle', 'peace', 'relax', 'soft', 'dream', 'lofi', 'lo-fi', 'meditat']],
  ['pulse', ['pulse', 'energetic', 'dance', 'party', 'club', 'beat', 'bounce', 'house', 'edm', 'pop', 'funk']],
  ['drift', ['drift', 'float', 'cinematic', 'smooth', 'flow', 'journey', 'travel', 'space', 'ocean']],
];

/** The prompt's words in lower case, single-spaced, with a space at each end (so 'eq ' and whole words match). */
function normalise(prompt: string): string {
  return ` ${prompt.toLowerCase().replace(/[^a-z0-9\- ]+/g, ' ').replace(/\s+/g, ' ').trim()} `;
}

/** The first entry whose word starts a word of the prompt. */
function byKeyword<T>(text: string, table: ReadonlyArray<readonly [T, readonly string[]]>): T | undefined {
  for (const [choice, words] of table) if (words.some((word) => text.includes(` ${word}`))) return choice;
  return undefined;
}

/** FNV-1a over the prompt's UTF-16 code units: stable across runs and machines. */
export function promptHash(prompt: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < prompt.length; i++) {
    hash ^= prompt.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function lookFromPrompt(prompt: string): VideoLook & { palette: VideoPalette; mode: VideoMode; motion: VideoMotion } {
  const text = normalise(prompt);
  const hash = promptHash(text.trim());
  // Different bits of the hash for each choice, so they do not move together.
  return {
    palette: byKeyword(text, PALETTE_WORDS) ?? VIDEO_PALETTES[hash % VIDEO_PALETTES.length]!,
    mode: byKeyword(text, MODE_WORDS) ?? VIDEO_MODES[(hash >>> 8) % VIDEO_MODES.length]!,
    motion: byKeyword(text, MOTION_WORDS) ?? VIDEO_MOTIONS[(hash >>> 16) % VIDEO_MOTIONS.length]!,
  };
}
