import { Inject, Injectable } from '@nestjs/common';
import { MediaClient } from '../media/media.client';
import { LiveHub } from './live.hub';

/**
 * `stem_update` on /ws: the same change as `PUT /api/stems/:id`, handed to the same media use-case, which
 * stores it and publishes `stem_updated` (MediaEventsRelay passes it to the owner's other sockets). One
 * socket's changes are stored one after another in the order sent, so its last change wins. A change sent
 * with an `id` is answered `stem_saved` once stored (a failure is the hub's `error`, carrying the id).
 */
@Injectable()
export class StemUpdateCommand {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(@Inject(LiveHub) hub: Pick<LiveHub, 'on'>, @Inject(MediaClient) media: Pick<MediaClient, 'updateStem'>) {
    hub.on('stem_update', (client, { type: _type, id, stemId, ...changes }) => {
      const { connectionId } = client;
      const stored = (this.queues.get(connectionId) ?? Promise.resolve()).then(() => media.updateStem(client.user.id, stemId, changes, connectionId));
      const settled = stored.then(
        () => undefined,
        () => undefined,
      );
      this.queues.set(connectionId, settled);
      void settled.then(() => this.queues.get(connectionId) === settled && this.queues.delete(connectionId));
      return stored.then(() => {
        if (id) client.send({ type: 'stem_saved', id });
      });
    });
  }
}
