import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ExportScratch } from './export-scratch';
import { EXPORT_SLOTS, type ExportSlotsPort } from './export-slots';
import { ExportsQueue } from './exports-queue';
import { RunExportUseCase } from './run-export.usecase';

/**
 * Pulls exports from the durable queue once the service is up; stops pulling on shutdown. Before the first
 * export, the scratch folders a crash left under EXPORT_WORK_DIR are removed. An export that ended (done,
 * given up, or gone; not one to retry) gives its owner's slot to their next waiting export.
 */
@Injectable()
export class ExportsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExportsWorker.name);

  constructor(
    private readonly queue: ExportsQueue,
    private readonly runExport: RunExportUseCase,
    private readonly scratch: ExportScratch,
    @Inject(EXPORT_SLOTS) private readonly slots: Pick<ExportSlotsPort, 'release'>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const removed = await this.scratch.sweep().catch((error: Error) => {
      this.logger.warn(`scratch folders left by an earlier run not removed: ${error.message}`);
      return [];
    });
    if (removed.length > 0) this.logger.log(`removed ${removed.length} scratch folder(s) left by an earlier run: ${removed.join(', ')}`);
    return this.queue.start(async (item) => {
      const outcome = await this.runExport.execute(item);
      if (outcome !== 'retry') {
        const { ownerId, exportId } = item.payload;
        // Not given back here (the database away): the sweep frees it.
        await this.slots.release(ownerId, exportId).catch((error: Error) => this.logger.warn(`slot of export ${exportId} not released: ${error.message}`));
      }
      return outcome;
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }
}
