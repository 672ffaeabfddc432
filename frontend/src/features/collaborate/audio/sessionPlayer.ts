import type { SessionMix, Stem, Transport } from '@stemdeck/proto';
import type { SessionClock } from './sessionClock';

/**
 * Plays a session's project stems for one participant, in step with everyone else: the shared transport says
 * where the song is at a server time; the session clock maps that to this browser's clock, and the start is
 * scheduled on the audio clock. (Work in progress: bodies follow.)
 */
export class SessionPlayer {
  lastStartWallMs: number | null = null;
  playing = false;

  async load(stems: readonly Stem[]): Promise<void> {
    void stems;
  }

  applyMix(mix: SessionMix): void {
    void mix;
  }

  follow(transport: Transport, clock: SessionClock): void {
    void transport;
    void clock;
  }

  position(): number {
    return 0;
  }

  setMasterVolume(volume: number): void {
    void volume;
  }

  dispose(): void {}
}
