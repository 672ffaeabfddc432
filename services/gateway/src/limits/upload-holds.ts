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
 * One hold's change to a user's holds: the lapsed ones dropped, `decide` asked how many bytes this upload takes
 * beside the others; `next` is the holds to write (undefined: refused, nothing to write).
 */
export async function holdStep(
  holds: UploadHolds,
  uploadId: string,
  decide: (othersBytes: number) => Promise<number>,
  now: number,
): Promise<{ next?: UploadHolds; answer: { heldBytes: number; othersBytes: number } }> {
  const live = liveHolds(holds, now);
  const othersBytes = heldBytes(live);
  const bytes = await decide(othersBytes);
  const next = bytes > 0 ? { ...live, [uploadId]: { bytes, until: now + HOLD_LIFETIME_MS } } : undefined;
  return { next, answer: { heldBytes: bytes, othersBytes } };
}

/** The holds without this upload's (undefined: it holds nothing, nothing to write). */
export function releaseStep(holds: UploadHolds, uploadId: string): UploadHolds | undefined {
  if (!(uploadId in holds)) return undefined;
  const { [uploadId]: _released, ...rest } = holds;
  return rest;
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
    const { next, answer } = await holdStep(this.holds.get(ownerId) ?? {}, uploadId, decide, now);
    // (A change made meanwhile by someone else would be lost here; in the specs nobody else writes.)
    if (next) this.holds.set(ownerId, next);
    return answer;
  }

  async release(ownerId: string, uploadId: string) {
    const next = releaseStep(this.holds.get(ownerId) ?? {}, uploadId);
    if (next) this.holds.set(ownerId, next);
  }
}
