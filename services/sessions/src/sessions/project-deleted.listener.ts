import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { MEDIA_EVENTS_WILDCARD, MediaEvent } from '@stemdeck/proto';
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
    this.bus.subscribe(MEDIA_EVENTS_WILDCARD, MediaEvent, (event) => {
      if (event.type !== 'project_deleted') return;
      this.endSessions.execute(event.ownerId, event.projectId).catch((error: Error) => {
        this.logger.error(`sessions of deleted project ${event.projectId} not ended: ${error.message}`);
      });
    });
  }
}
