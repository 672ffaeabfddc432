import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { releaseMemory } from '../release-memory';
import { RunSeparationUseCase } from './run-separation.usecase';
import { SeparationQueue } from './separation-queue';
import { SEPARATION_SLOTS, type SeparationSlotsPort } from './separation-slots';

/**
 * Pulls separation jobs from the durable queue once the service is up; stops pulling on shutdown. A job
 * that ended (done or given up, not one to retry) gives its owner's slot to their next waiting job.
 */
@Injectable()
export class SeparationWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SeparationWorker.name);

  constructor(
    private readonly queue: SeparationQueue,
    private readonly runSeparation: RunSeparationUseCase,
    @Inject(SEPARATION_SLOTS) private readonly slots: Pick<SeparationSlotsPort, 'release'>,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.queue.start(async (item) => {
      item.describe?.({ type: 'separation', engine: item.payload.engine });
      try {
        const outcome = await this.runSeparation.execute(item);
        if (outcome !== 'retry') {
          const { ownerId, jobId } = item.payload;
          // Not given back here (the database away): the sweep frees it.
          await this.slots.release(ownerId, jobId).catch((error: Error) => this.logger.warn(`slot of job ${jobId} not released: ${error.message}`));
        }
        return outcome;
      } finally {
        // Twice: buffers freed by the first collection's finalizers are only reclaimed by the next.
        releaseMemory();
        setTimeout(releaseMemory, 1000).unref();
      }
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }
}
