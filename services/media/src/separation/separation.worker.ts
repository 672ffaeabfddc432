import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
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
    return this.queue.start((item) => this.runSeparation.execute(item));
  }

  onApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }
}
