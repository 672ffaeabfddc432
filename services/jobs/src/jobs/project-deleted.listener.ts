import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { MediaEvent, PROJECT_DELETED_EVENTS } from '@stemdeck/proto';
import { DeleteProjectJobsUseCase } from './delete-project-jobs.usecase';

/** media's `project_deleted` → that project's jobs and their objects are removed. */
@Injectable()
export class ProjectDeletedListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(ProjectDeletedListener.name);

  constructor(
    private readonly bus: NatsEventBus,
    private readonly deleteProjectJobs: DeleteProjectJobsUseCase,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe(PROJECT_DELETED_EVENTS, MediaEvent, (event) => {
      if (event.type !== 'project_deleted') return;
      this.deleteProjectJobs.execute(event.ownerId, event.projectId).catch((error: Error) => {
        this.logger.error(`jobs of deleted project ${event.projectId} not removed: ${error.message}`);
      });
    });
  }
}
