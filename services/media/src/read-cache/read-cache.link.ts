import type { NatsEventBus } from '@stemdeck/platform';
import { z } from 'zod';
import type { OwnerReadCache, ReadCacheChange } from './owner-read-cache';

/**
 * Where the media instances tell each other which owner's reads changed: every instance hears every other's
 * changes (media's event connection does not hear its own messages echoed back, so a change is not read twice).
 */
export const READ_CACHE_CHANGES_SUBJECT = 'stemdeck.media.read-cache.changed';

const readCacheChange: z.ZodType<ReadCacheChange> = z.object({
  ownerId: z.string().min(1),
  scope: z.enum(['projects', 'stems']),
  instance: z.string().min(1),
});

/** How long a write waits for its announcement to reach NATS; past it the change is answered anyway (see the time limit). */
const ANNOUNCE_FLUSH_MS = 1000;

/** The part of the event bus the link uses. */
export type ReadCacheBus = Pick<NatsEventBus, 'subscribe' | 'publish' | 'flush' | 'onConnectionChange'>;

/**
 * Joins the cache to the other instances over the events' own connection. A write's announcement is
 * published and flushed (the server has it) before the repository returns, so before the write's reply or
 * event leaves this instance; NATS then hands it to every other instance ahead of anything the client sends
 * after hearing that reply or event.
 */
export function linkReadCache(cache: OwnerReadCache, bus: ReadCacheBus): OwnerReadCache {
  bus.subscribe(READ_CACHE_CHANGES_SUBJECT, readCacheChange, (change) => cache.heard(change));
  // Announcements made while the connection was away were never heard: nothing kept is trusted after that.
  bus.onConnectionChange(() => cache.clear());
  cache.connect({
    announce: async (change) => {
      bus.publish(READ_CACHE_CHANGES_SUBJECT, change);
      await bus.flush(ANNOUNCE_FLUSH_MS);
    },
  });
  return cache;
}
