import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsEventBus } from '@stemdeck/platform';
import { JOB_EVENTS_WILDCARD, JobEvent, jobEventOwner, LiveServerMessage } from '@stemdeck/proto';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { withOutputUrls } from '../jobs/job-url';
import { LiveHub } from './live.hub';
import { ownersWithSockets } from './owners-with-sockets';

/** A job event as the owner's sockets get it: without the owner, outputs with the gateway's urls. */
export const toLiveJobMessage = (event: JobEvent): LiveServerMessage => ({ type: event.type, job: withOutputUrls(event.job) });

/**
 * Fans the jobs service's events (`job_progress`, `job_completed`, `job_failed`) out to the owner's open sockets;
 * the events of owners with no socket on this replica are passed by unread.
 */
@Injectable()
export class JobEventsRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly bus: NatsEventBus;

  constructor(
    private readonly hub: LiveHub,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.bus = new NatsEventBus(config.NATS_URL, 'stemdeck-gateway-job-events');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.connect();
    this.bus.subscribe(
      JOB_EVENTS_WILDCARD,
      JobEvent,
      (event) => this.hub.sendToUser(event.ownerId, toLiveJobMessage(event), null),
      ownersWithSockets(this.hub, jobEventOwner),
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.bus.close();
  }
}
