import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EXPORT_CONFIG } from '../config';
import type { ExportConfig } from '../config';
import { PurgeExpiredExportsUseCase } from './purge-expired-exports.usecase';

/** Runs the expiry sweep every EXPORT_SWEEP_INTERVAL_MS (one pass at a time; a failed pass is logged and the next one runs). */
@Injectable()
export class ExpiredExportsSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExpiredExportsSweep.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly purge: PurgeExpiredExportsUseCase,
    @Inject(EXPORT_CONFIG) private readonly config: Pick<ExportConfig, 'EXPORT_SWEEP_INTERVAL_MS'>,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.pass(), this.config.EXPORT_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** One pass unless one is still running. */
  pass(): Promise<void> {
    this.running ??= this.purge
      .execute()
      .then((purged) => {
        if (purged > 0) this.logger.log(`removed ${purged} expired export(s)`);
      })
      .catch((error: Error) => this.logger.warn(`expiry sweep failed: ${error.message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
