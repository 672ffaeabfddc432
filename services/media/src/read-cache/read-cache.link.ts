import type { NatsEventBus } from '@stemdeck/platform';
import { z } from 'zod';
import type { OwnerReadCache, ReadCacheChange } from './owner-read-cache';

/** Where the media instances tell each other which owner's reads changed (every instance hears every change). */
export const READ_CACHE_CHANGES_SUBJECT = 'stemdeck.media.read-cache.changed';

const readCacheChange: z.ZodType<ReadCacheChange> = z.object({
  ownerId: z.string().min(1),
  scope: z.enum(['projects', 'stems']),
  instance: z.string().min(1),
});

/**
 * Joins the cache to the other instances over the events' own connection: an announcement goes out before
 * the event of the same change (one connection keeps their order), so an instance has dropped the old reads
 * before a client that heard the event can ask it again.
 */
export function linkReadCache(cache: OwnerReadCache, bus: NatsEventBus): OwnerReadCache {
  bus.subscribe(READ_CACHE_CHANGES_SUBJECT, readCacheChange, (change) => cache.heard(change));
  // Announcements made while the connection was away were never heard: nothing kept is trusted after that.
  bus.onConnectionChange(() => cache.clear());
  cache.connect({ announce: (change) => bus.publish(READ_CACHE_CHANGES_SUBJECT, change) });
  return cache;
}
