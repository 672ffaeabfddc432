import { NatsEventBus } from '@stemdeck/platform';
import { MediaEvent, mediaEventSubject } from '@stemdeck/proto';

/** Publishes stem progress/readiness to the owner's event subject; the gateway relays it to their sockets. */
export class MediaEventsPublisher {
  constructor(private readonly bus: NatsEventBus) {}

  publish(event: MediaEvent): void {
    this.bus.publish(mediaEventSubject(event.ownerId), event);
  }
}
