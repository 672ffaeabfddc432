import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { MediaEvent, PROJECT_DELETED_EVENTS } from '@stemdeck/proto';
import { DeleteProjectExportsUseCase } from './delete-project-exports.usecase';

/** media's `project_deleted` → that project's exports and their files are removed. */
@Injectable()
export class DeletedProjectExportsListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(DeletedProjectExportsListener.name);

  constructor(
    private readonly bus: NatsEventBus,
    private readonly deleteProjectExports: DeleteProjectExportsUseCase,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe(PROJECT_DELETED_EVENTS, MediaEvent, (event) => {
      if (event.type !== 'project_deleted') return;
      this.deleteProjectExports.execute(event.ownerId, event.projectId).catch((error: Error) => {
        this.logger.error(`exports of deleted project ${event.projectId} not removed: ${error.message}`);
      });
    });
  }
}
