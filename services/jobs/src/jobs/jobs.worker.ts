import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JobsQueue } from './jobs-queue';
import { RunMasteringJobUseCase } from './run-mastering-job.usecase';

/** Pulls jobs from the durable queue once the service is up; stops pulling on shutdown. */
@Injectable()
export class JobsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly queue: JobsQueue,
    private readonly runMastering: RunMasteringJobUseCase,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.queue.start((item) => this.runMastering.execute(item));
  }

  onApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }
}
