import { Injectable } from '@nestjs/common';
import { describeZodError } from '@stemdeck/platform';
import { PadTriggerMessage, StemUpdateMessage } from '@stemdeck/proto';
import type { ZodTypeAny } from 'zod';
import { LiveHub } from './live.hub';

/** Messages a client sends that its owner's other sockets (another tab, a controller page) should see at once. */
const RELAYED: Record<string, ZodTypeAny> = {
  /** A mixer change (seed 000 §3); saving it is `PUT /api/stems/:id`, owner-checked by the media service. */
  stem_update: StemUpdateMessage,
  /** A performance pad hit (seed 001 §2). */
  pad_trigger: PadTriggerMessage,
};

/**
 * Validates and relays `stem_update` and `pad_trigger` to the sender's other open sockets. The relay only
 * ever reaches the sender's own sockets, so it needs no ownership lookup; a bad message gets
 * `{type: "error", code: "invalid"}` naming the field.
 */
@Injectable()
export class OwnSocketsRelay {
  constructor(hub: LiveHub) {
    for (const [type, schema] of Object.entries(RELAYED)) {
      hub.on(type, (client, message) => {
        const parsed = schema.safeParse(message);
        if (!parsed.success) {
          client.send({ type: 'error', code: 'invalid', message: describeZodError(parsed.error), for: type });
          return;
        }
        hub.sendToUser(client.user.id, parsed.data, client);
      });
    }
  }
}
