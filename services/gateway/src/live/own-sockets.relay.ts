import { Injectable } from '@nestjs/common';
import { LiveHub } from './live.hub';

/**
 * Passes `pad_trigger` (a performance pad hit, checked by the hub's validator) to the sender's other open
 * sockets: a trigger for another tab or a controller page, nothing to store. It only ever reaches the
 * sender's own sockets, so it needs no ownership lookup.
 */
@Injectable()
export class OwnSocketsRelay {
  constructor(hub: LiveHub) {
    hub.on('pad_trigger', (client, message) => {
      hub.sendToUser(client.user.id, message, client.connectionId);
    });
  }
}
