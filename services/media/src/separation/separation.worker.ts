import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { releaseMemory } from '../release-memory';
import { RunSeparationUseCase } from './run-separation.usecase';
import { SeparationQueue } from './separation-queue';

/** Pulls separation jobs from the durable queue once the service is up; stops pulling on shutdown. */
@Injectable()
export class SeparationWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly queue: SeparationQueue,
    private readonly runSeparation: RunSeparationUseCase,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.queue.start(async (item) => {
      item.describe?.({ type: 'separation', engine: item.payload.engine });
      try {
        return await this.runSeparation.execute(item);
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
