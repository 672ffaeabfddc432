import { Injectable } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { sessionEventsSubject, type SessionEvent } from '@stemdeck/proto';
import type { SessionEventPublisher } from './sessions.ports';

/** A session's events on its core NATS subject, which every gateway with a socket in the session listens to. */
@Injectable()
export class NatsSessionEvents implements SessionEventPublisher {
  constructor(private readonly bus: NatsEventBus) {}

  publish(sessionId: string, event: SessionEvent): void {
    this.bus.publish(sessionEventsSubject(sessionId), event);
  }
}
