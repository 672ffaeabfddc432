import type { CollaborationPad } from '@stemdeck/proto/vocabulary';
import type { DrumId } from '../../../instruments/drumKit';

/** Each collaboration pad is the studio drum machine's voice of the same name. */
export const DRUM_OF_PAD: Readonly<Record<CollaborationPad, DrumId>> = {
  Kick: 'kick',
  Snare: 'snare',
  'Hi-Hat': 'hihat',
  'Open Hat': 'openhat',
  Crash: 'crash',
  Ride: 'ride',
  'Tom 1': 'tom1',
  'Tom 2': 'tom2',
};

/** The pads' velocity scale (the live messages carry MIDI's 0–127). */
const VELOCITY_MAX = 127;
/** Two hits of one voice need distinct start times (Tone refuses equal ones): a repeat this soon is nudged. */
export const MIN_HIT_SPACING_S = 0.002;
/** How long a hit waits for a suspended context to resume before it is dropped. */
export const RESUME_WAIT_MS = 200;

/** `velocity` (0–127, clamped; not a number → full) as the drum kit's 0–1. */
export function padGain(velocity: number): number {
  return Math.min(VELOCITY_MAX, Math.max(0, Number.isFinite(velocity) ? velocity : VELOCITY_MAX)) / VELOCITY_MAX;
}

/** What the pads need of the audio engine (Tone and the studio's context in the app; fakes in tests). */
export interface PadEngine {
  /** Makes the audio run (resumes the context); resolves whether it runs. */
  start(): Promise<boolean>;
  running(): boolean;
  /** The audio clock now, seconds. */
  now(): number;
  /** The drum voices, made once, already connected to where the pads sound. */
  makeKit(): { trigger(id: DrumId, time: number, velocity: number): void };
  wait(ms: number): Promise<void>;
}

/**
 * The collaboration pads' player: one drum kit made on the first hit; each hit plays its pad's voice at
 * once. A hit on a page whose audio cannot run yet (no click so far) waits briefly, then is dropped rather
 * than played late.
 */
export class CollaborationPads {
  private kit: ReturnType<PadEngine['makeKit']> | null = null;
  private readonly lastHit = new Map<DrumId, number>();

  constructor(private readonly engine: PadEngine) {}

  /** Resolves whether the hit sounded. */
  async play(pad: CollaborationPad, velocity: number): Promise<boolean> {
    const drum = DRUM_OF_PAD[pad];
    if (!drum) return false;
    const starting = this.engine.start().catch(() => false);
    if (!this.engine.running()) {
      const started = await Promise.race([starting, this.engine.wait(RESUME_WAIT_MS).then(() => false)]);
      if (!started || !this.engine.running()) return false;
    }
    this.kit ??= this.engine.makeKit();
    const time = Math.max(this.engine.now(), (this.lastHit.get(drum) ?? -Infinity) + MIN_HIT_SPACING_S);
    this.lastHit.set(drum, time);
    this.kit.trigger(drum, time, padGain(velocity));
    return true;
  }
}
