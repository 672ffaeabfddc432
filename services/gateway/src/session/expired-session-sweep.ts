import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SessionStoreRepository } from './session-store.repository';

export interface ExpiredSessionStore {
  deleteExpired(now?: Date): Promise<number>;
}

/**
 * Deletes expired sessions on a timer. Not every MongoDB-protocol server enforces TTL indexes
 * (FerretDB does not), and connect-mongo's own interval sweep sends its delete unacknowledged, so the
 * gateway runs this one instead. A failed sweep is logged and the next tick tries again; the timer
 * never keeps the process alive.
 */
@Injectable()
export class ExpiredSessionSweep implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ExpiredSessionSweep.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(SessionStoreRepository) private readonly store: ExpiredSessionStore,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'SESSION_SWEEP_INTERVAL_SECONDS'>,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.SESSION_SWEEP_INTERVAL_SECONDS * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass; a pass still running (a slow database) is not overlapped by the next tick. */
  sweep(): Promise<void> {
    this.running ??= this.store
      .deleteExpired(new Date())
      .then((removed) => {
        if (removed > 0) this.logger.log(`removed ${removed} expired session(s)`);
      })
      .catch((error: Error) => this.logger.warn(`expired-session sweep failed (next try in ${this.config.SESSION_SWEEP_INTERVAL_SECONDS} s): ${error.message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
