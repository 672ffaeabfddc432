import { inSyncSpan, messagingAttributes, NatsEventBus, SPAN_ATTRIBUTES } from '@stemdeck/platform';
import { MediaEvent, mediaEventSubject } from '@stemdeck/proto';

/** The events' subject without the owner and type parts, for span names and attributes (one name for every owner). */
const EVENTS_SUBJECT = 'stemdeck.media.events';

/** Publishes stem progress/readiness to the owner's event subject; the gateway relays it to their sockets. */
export class MediaEventsPublisher {
  constructor(private readonly bus: NatsEventBus) {}

  publish(event: MediaEvent): void {
    const attributes = {
      ...messagingAttributes(EVENTS_SUBJECT, 'send'),
      [SPAN_ATTRIBUTES.eventType]: event.type,
      ...('projectId' in event ? { [SPAN_ATTRIBUTES.projectId]: event.projectId } : {}),
      ...('engine' in event ? { [SPAN_ATTRIBUTES.engine]: event.engine } : {}),
    };
    inSyncSpan(`${EVENTS_SUBJECT} publish`, 'producer', attributes, () => this.bus.publish(mediaEventSubject(event.ownerId, event.type), event));
  }
}
