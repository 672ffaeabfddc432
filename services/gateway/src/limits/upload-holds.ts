/**
 * Room held in a user's storage quota for their uploads still streaming. An upload is checked against what
 * is stored plus what the user's other uploads in flight hold, and holds its own share in the same
 * compare-and-set write, so two uploads at the same moment can never both take the same room.
 */

/** How long a hold lasts without being released: the longest upload (500 MB) at a slow 1.2 Mbit/s. */
export const HOLD_LIFETIME_MS = 60 * 60 * 1000;

/** One user's holds, per upload id: bytes and when the hold lapses (ms since the epoch). */
export type UploadHolds = Record<string, { bytes: number; until: number }>;

/** The holds that have not lapsed (a gateway that died mid-upload never released its hold). */
export function liveHolds(holds: UploadHolds, now: number): UploadHolds {
  return Object.fromEntries(Object.entries(holds).filter(([, hold]) => hold.until > now));
}

export function heldBytes(holds: UploadHolds): number {
  return Object.values(holds).reduce((sum, hold) => sum + hold.bytes, 0);
}

/**
 * Holds of every user. `hold` reads the user's holds, then asks `decide` how many bytes this upload takes given
 * what the others hold (0: none, the upload is refused), and writes the hold only if nobody changed the holds
 * in between (else it reads again and asks again); it answers what was held and what the others held.
 * `decide` reads what is stored after the holds were read: an upload releases its hold only once its file is
 * stored, so a file is always counted, as a hold or as stored, never neither.
 */
export interface UploadHoldStore {
  hold(ownerId: string, uploadId: string, decide: (othersBytes: number) => Promise<number>, now: number): Promise<{ heldBytes: number; othersBytes: number }>;
  release(ownerId: string, uploadId: string): Promise<void>;
}

/** The holds in this process (unit specs; the gateway shares them across replicas in NATS KV). */
export class MemoryUploadHolds implements UploadHoldStore {
  readonly holds = new Map<string, UploadHolds>();

  async hold(ownerId: string, uploadId: string, decide: (othersBytes: number) => Promise<number>, now: number) {
    const holds = liveHolds(this.holds.get(ownerId) ?? {}, now);
    const othersBytes = heldBytes(holds);
    const bytes = await decide(othersBytes);
    // (A change made meanwhile by someone else would be lost here; in the specs nobody else writes.)
    if (bytes > 0) this.holds.set(ownerId, { ...holds, [uploadId]: { bytes, until: now + HOLD_LIFETIME_MS } });
    return { heldBytes: bytes, othersBytes };
  }

  async release(ownerId: string, uploadId: string) {
    const { [uploadId]: _released, ...rest } = this.holds.get(ownerId) ?? {};
    this.holds.set(ownerId, rest);
  }
}
