import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { MediaEvent, PROJECT_DELETED_EVENTS } from '@stemdeck/proto';
import { DeleteProjectShareLinksUseCase } from './delete-project-share-links.usecase';

/** media's `project_deleted` → that project's share links are removed. */
@Injectable()
export class ShareLinksProjectDeletedListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(ShareLinksProjectDeletedListener.name);

  constructor(
    private readonly bus: NatsEventBus,
    private readonly deleteShareLinks: DeleteProjectShareLinksUseCase,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe(PROJECT_DELETED_EVENTS, MediaEvent, (event) => {
      if (event.type !== 'project_deleted') return;
      this.deleteShareLinks.execute(event.ownerId, event.projectId).catch((error: Error) => {
        this.logger.error(`share links of deleted project ${event.projectId} not removed: ${error.message}`);
      });
    });
  }
}
