import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { LiveServerMessage, MEDIA_EVENTS_WILDCARD, MediaEvent, mediaEventOwner } from '@stemdeck/proto';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { withStemUrl } from '../stems/stem-url';
import { LiveHub } from './live.hub';
import { ownersWithSockets } from './owners-with-sockets';

/** A media event as the owner's sockets get it: without the owner, stems with the gateway's urls. */
export function toLiveMessage(event: MediaEvent): LiveServerMessage {
  switch (event.type) {
    case 'stems_partial':
    case 'stems_ready': {
      const { ownerId: _ownerId, stems, ...rest } = event;
      return { ...rest, stems: stems.map(withStemUrl) };
    }
    case 'stem_updated':
      return { type: 'stem_updated', stem: withStemUrl(event.stem), changes: event.changes };
    default: {
      const { ownerId: _ownerId, ...rest } = event;
      return rest;
    }
  }
}

/**
 * Fans the media service's events out to the owner's open sockets: separation (`stems_queued`, `stems_progress`,
 * `stems_partial`, `stems_ready`, `stems_failed`), `project_deleted`, and `stem_updated` (to every socket
 * but the one whose change it was).
 */
@Injectable()
export class MediaEventsRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly bus: NatsEventBus;

  constructor(
    private readonly hub: LiveHub,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.bus = new NatsEventBus(config.NATS_URL, 'stemdeck-gateway-events');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.connect();
    this.bus.subscribe(
      MEDIA_EVENTS_WILDCARD,
      MediaEvent,
      (event) => this.hub.sendToUser(event.ownerId, toLiveMessage(event), event.type === 'stem_updated' ? event.origin : null),
      ownersWithSockets(this.hub, mediaEventOwner),
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.bus.close();
  }
}
