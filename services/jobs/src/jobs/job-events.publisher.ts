import { NatsEventBus } from '@stemdeck/platform';
import { JobEvent, jobEventSubject } from '@stemdeck/proto';
import type { JobEvents } from './jobs.ports';

/** Publishes job progress, completion and failure on the owner's subject; the gateway relays them to their sockets. */
export class JobEventsPublisher implements JobEvents {
  constructor(private readonly bus: NatsEventBus) {}

  publish(event: JobEvent): void {
    this.bus.publish(jobEventSubject(event.ownerId), event);
  }
}
