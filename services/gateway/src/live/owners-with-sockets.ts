import type { LiveHub } from './live.hub';

/**
 * Every replica hears every owner's events: one for an owner with no socket on this replica is passed by on its
 * subject, unread (a subject `ownerOf` names no owner in is read, checked and handled as before).
 */
export const ownersWithSockets =
  (hub: Pick<LiveHub, 'hasSockets'>, ownerOf: (subject: string) => string | null) =>
  (subject: string): boolean => {
    const owner = ownerOf(subject);
    return owner === null || hub.hasSockets(owner);
  };
