import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { MediaEvent, PROJECT_DELETED_EVENTS } from '@stemdeck/proto';
import { EndProjectSessionsUseCase } from './end-project-sessions.usecase';

/** media's `project_deleted` → the sessions on that project end. */
@Injectable()
export class SessionsProjectDeletedListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(SessionsProjectDeletedListener.name);

  constructor(
    private readonly bus: NatsEventBus,
    private readonly endSessions: EndProjectSessionsUseCase,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe(PROJECT_DELETED_EVENTS, MediaEvent, (event) => {
      if (event.type !== 'project_deleted') return;
      this.endSessions.execute(event.ownerId, event.projectId).catch((error: Error) => {
        this.logger.error(`sessions of deleted project ${event.projectId} not ended: ${error.message}`);
      });
    });
  }
}
