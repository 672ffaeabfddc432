/**
 * The studio's single AudioContext. Created on first use (a user gesture), shared by every audio
 * feature. Plain TypeScript: no React here.
 */
let audioContext: AudioContext | null = null;
const listeners = new Set<(context: AudioContext) => void>();

export function ensureAudioContext(): AudioContext {
  if (!audioContext) {
    audioContext = new AudioContext({ latencyHint: 'interactive' });
    for (const listener of listeners) listener(audioContext);
  }
  return audioContext;
}

/** Called with the context now (if it exists) and when it is created. */
export function onAudioContext(listener: (context: AudioContext) => void): () => void {
  listeners.add(listener);
  if (audioContext) listener(audioContext);
  return () => listeners.delete(listener);
}

interface RenderCapacity extends EventTarget {
  start(options?: { updateInterval?: number }): void;
  stop(): void;
}

/**
 * Real audio-thread load where the browser exposes it (AudioContext.renderCapacity); null otherwise,
 * in which case the CPU meter is hidden rather than showing an invented number.
 */
export function renderCapacityOf(context: AudioContext): RenderCapacity | null {
  const capacity = (context as AudioContext & { renderCapacity?: RenderCapacity }).renderCapacity;
  return capacity && typeof capacity.start === 'function' ? capacity : null;
}
