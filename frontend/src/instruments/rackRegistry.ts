import type { InstrumentRack } from './instrumentRack';

/**
 * Who is told when the instrument rack comes to exist. Kept apart from the rack (and Tone.js) so that
 * the studio shell can follow it without loading the instruments until a music panel is opened.
 */
let current: InstrumentRack | null = null;
const listeners = new Set<(rack: InstrumentRack) => void>();

export function publishInstrumentRack(rack: InstrumentRack): void {
  current = rack;
  for (const listener of listeners) listener(rack);
}

/** The rack if a gesture has created it. */
export const currentInstrumentRack = (): InstrumentRack | null => current;

/** Called with the rack now if it exists, else when a gesture creates it (panels never start audio on mount). */
export function onInstrumentRack(listener: (rack: InstrumentRack) => void): () => void {
  listeners.add(listener);
  if (current) listener(current);
  return () => listeners.delete(listener);
}
