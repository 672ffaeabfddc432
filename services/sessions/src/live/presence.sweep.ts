import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PresenceTracker } from './presence-tracker';

/** How often the service looks for people whose presence keys have all expired. */
export const PRESENCE_SWEEP_INTERVAL_MS = 2500;

/**
 * At boot, learns who is online from the presence bucket; then every PRESENCE_SWEEP_INTERVAL_MS turns
 * people whose gateway stopped putting their keys offline (one pass at a time; a failed pass is logged and
 * the next one runs).
 */
@Injectable()
export class PresenceSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PresenceSweep.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly presence: PresenceTracker) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.presence.rebuild().catch((error: Error) => this.logger.warn(`presence not read at boot: ${error.message}`));
    this.timer = setInterval(() => void this.pass(), PRESENCE_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** One pass unless one is still running. */
  pass(): Promise<void> {
    this.running ??= this.presence
      .sweep()
      .then(({ wentOffline, cameOnline }) => {
        if (wentOffline + cameOnline > 0) this.logger.log(`presence: ${wentOffline} went offline, ${cameOnline} came online`);
      })
      .catch((error: Error) => this.logger.warn(`presence sweep failed: ${error.message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
