import type { MusicEngine } from './musicEngine';

/**
 * Who is told when the music engine comes to exist. Kept apart from the engine (and Tone.js) so that
 * the studio shell can follow it without loading the instruments until a music panel is opened.
 */
let current: MusicEngine | null = null;
const listeners = new Set<(engine: MusicEngine) => void>();

export function publishMusicEngine(engine: MusicEngine): void {
  current = engine;
  for (const listener of listeners) listener(engine);
}

/** The engine if a gesture has created it. */
export const currentMusicEngine = (): MusicEngine | null => current;

/** Called with the engine now if it exists, else when a gesture creates it (panels never start audio on mount). */
export function onMusicEngine(listener: (engine: MusicEngine) => void): () => void {
  listeners.add(listener);
  if (current) listener(current);
  return () => listeners.delete(listener);
}
