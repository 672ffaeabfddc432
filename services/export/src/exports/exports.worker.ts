import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ExportScratch } from './export-scratch';
import { ExportsQueue } from './exports-queue';
import { RunExportUseCase } from './run-export.usecase';

/**
 * Pulls exports from the durable queue once the service is up; stops pulling on shutdown. Before the first
 * export, the scratch folders a crash left under EXPORT_WORK_DIR are removed.
 */
@Injectable()
export class ExportsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExportsWorker.name);

  constructor(
    private readonly queue: ExportsQueue,
    private readonly runExport: RunExportUseCase,
    private readonly scratch: ExportScratch,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const removed = await this.scratch.sweep().catch((error: Error) => {
      this.logger.warn(`scratch folders left by an earlier run not removed: ${error.message}`);
      return [];
    });
    if (removed.length > 0) this.logger.log(`removed ${removed.length} scratch folder(s) left by an earlier run: ${removed.join(', ')}`);
    return this.queue.start((item) => this.runExport.execute(item));
  }

  onApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }
}
