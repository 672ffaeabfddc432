import { Injectable } from '@nestjs/common';
import { describeZodError } from '@stemdeck/platform';
import { StemUpdateMessage } from '@stemdeck/proto';
import { LiveHub } from './live.hub';

/**
 * `stem_update` on /ws (seed 000 §3): a mixer change, relayed at once to the owner's other open sockets
 * (another tab, a controller). Saving is the REST call `PUT /api/stems/:id`, owner-checked by the media
 * service; this relay only ever reaches the sender's own sockets, so it needs no lookup.
 */
@Injectable()
export class StemUpdatesRelay {
  constructor(hub: LiveHub) {
    hub.on('stem_update', (client, message) => {
      const parsed = StemUpdateMessage.safeParse(message);
      if (!parsed.success) {
        client.send({ type: 'error', code: 'invalid', message: describeZodError(parsed.error), for: 'stem_update' });
        return;
      }
      hub.sendToUser(client.user.id, parsed.data, client);
    });
  }
}
