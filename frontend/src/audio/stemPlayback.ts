import type { StemType } from '../api/mediaTypes';
import type { StemMix } from './stemGain';

/** A stem as the player needs it: where its audio is and how it sits in the mix. */
export interface PlayerStem extends StemMix {
  id: string;
  type: StemType;
  url: string;
}

export type PlaybackStatus = 'stopped' | 'playing' | 'paused';

export type PlayerErrorCode = 'no-audio' | 'context-failed' | 'context-not-ready' | 'load-failed';

export class PlayerError extends Error {
  constructor(
    readonly code: PlayerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Sources start this far ahead so every one is scheduled before the shared start time arrives. */
export const START_AHEAD_S = 0.03;
