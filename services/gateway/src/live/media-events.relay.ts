import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { MEDIA_EVENTS_WILDCARD, MediaEvent } from '@stemdeck/proto';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { LiveHub } from './live.hub';

/** Relays the media service's stem events to the owner's open sockets (`stems_progress`, `stems_partial`, `stems_ready`, `stems_failed`). */
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
    this.bus.subscribe(MEDIA_EVENTS_WILDCARD, MediaEvent, ({ ownerId, ...event }) => this.hub.sendToUser(ownerId, event));
  }

  onApplicationShutdown(): Promise<void> {
    return this.bus.close();
  }
}
