import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Connection } from 'mongoose';

/**
 * How many jobs of one kind (separation, a studio job, an export) each user may have running at once.
 * More are not refused: they wait, oldest first, and start as the user's earlier ones finish, so one
 * user's twenty uploads cannot hold back everybody else's. The slots are documents in the database with
 * deterministic ids (`<kind>:<owner>:<n>`): inserting one is the claim, so two processes (or replicas)
 * never hand out the same slot, and a crash between a job's end and its release is repaired by the sweep.
 */

/** What the slots need to know about one service's jobs of their kind. */
export interface WaitingJobs {
  /** The owner's jobs waiting for a slot, oldest first. */
  waiting(ownerId: string): Promise<string[]>;
  /** Owners who have jobs waiting. */
  ownersWaiting(): Promise<string[]>;
  /**
   * Whether a slot claimed for the job is still its own: the job exists and has not finished (a waiting job
   * counts too: it is between its claim and its start). False frees the slot.
   */
  holdsSlot(ownerId: string, jobId: string): Promise<boolean>;
  /** Takes the job out of waiting; true only for the one call that did (so it is handed on once). */
  leaveWaiting(ownerId: string, jobId: string): Promise<boolean>;
  /** Hands the job to its work queue. Throwing means it never got there: the job's own store marks it failed. */
  dispatch(ownerId: string, jobId: string): Promise<void>;
  /** The owner's waiting jobs moved up (position 1 starts next). */
  positionsChanged(ownerId: string, positions: ReadonlyArray<{ jobId: string; position: number }>): void;
}

/** Where the claims live: one slot per id, inserted atomically. */
export interface SlotBoard {
  /** True when this call claimed the slot; false when someone holds it. */
  claim(slotId: string, claim: SlotClaim): Promise<boolean>;
  /** Frees the slots the job holds. */
  free(kind: string, jobId: string): Promise<void>;
  /** Frees one slot (only while this job holds it). */
  freeSlot(slotId: string, jobId: string): Promise<void>;
  held(kind: string): Promise<Array<SlotClaim & { slotId: string; claimedAt: Date }>>;
}

export interface SlotClaim {
  kind: string;
  ownerId: string;
  jobId: string;
}

const DUPLICATE_KEY = 11000;
/** A claim this old whose job still waits was never followed by the job's start. */
export const STALE_CLAIM_MS = 60_000;

/** The slots as documents of the `job_slots` collection (their `_id` is the slot). */
export class DatabaseSlotBoard implements SlotBoard {
  constructor(private readonly connection: Connection) {}

  private get slots() {
    return this.connection.collection<{ _id: string; kind: string; ownerId: string; jobId: string; claimedAt: Date }>('job_slots');
  }

  async claim(slotId: string, claim: SlotClaim): Promise<boolean> {
    try {
      await this.slots.insertOne({ _id: slotId, ...claim, claimedAt: new Date() });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async free(kind: string, jobId: string): Promise<void> {
    await this.slots.deleteMany({ kind, jobId });
  }

  async freeSlot(slotId: string, jobId: string): Promise<void> {
    await this.slots.deleteOne({ _id: slotId, jobId });
  }

  async held(kind: string): Promise<Array<SlotClaim & { slotId: string; claimedAt: Date }>> {
    const docs = await this.slots.find({ kind }).toArray();
    return docs.map(({ _id, kind: k, ownerId, jobId, claimedAt }) => ({ slotId: _id, kind: k, ownerId, jobId, claimedAt }));
  }
}

/** The slots in this process's memory: for unit specs (a real deployment shares the database's). */
export class MemorySlotBoard implements SlotBoard {
  readonly slots = new Map<string, SlotClaim & { claimedAt: Date }>();

  async claim(slotId: string, claim: SlotClaim): Promise<boolean> {
    if (this.slots.has(slotId)) return false;
    this.slots.set(slotId, { ...claim, claimedAt: new Date() });
    return true;
  }

  async free(kind: string, jobId: string): Promise<void> {
    for (const [id, claim] of this.slots) if (claim.kind === kind && claim.jobId === jobId) this.slots.delete(id);
  }

  async freeSlot(slotId: string, jobId: string): Promise<void> {
    if (this.slots.get(slotId)?.jobId === jobId) this.slots.delete(slotId);
  }

  async held(kind: string): Promise<Array<SlotClaim & { slotId: string; claimedAt: Date }>> {
    return [...this.slots].filter(([, claim]) => claim.kind === kind).map(([slotId, claim]) => ({ slotId, ...claim }));
  }
}

export class OwnerJobSlots {
  /** One fill per owner at a time in this process (other processes are kept apart by the board). */
  private readonly fills = new Map<string, Promise<void>>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly kind: string,
    private readonly perOwner: number,
    private readonly board: SlotBoard,
    private readonly jobs: WaitingJobs,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /**
   * A job was stored as waiting: it starts now if the owner has a free slot and no older job waits.
   * Returns its place in the owner's line (1 = next), or null when it started.
   */
  async admit(ownerId: string, jobId: string): Promise<number | null> {
    await this.fill(ownerId);
    const index = (await this.jobs.waiting(ownerId)).indexOf(jobId);
    return index < 0 ? null : index + 1;
  }

  /** The job finished (done, failed for good, or gone): its slot goes to the owner's next waiting job. */
  async release(ownerId: string, jobId: string): Promise<void> {
    await this.board.free(this.kind, jobId);
    await this.fill(ownerId);
  }

  /** The owner's place in line for each waiting job (1 = next). */
  async positions(ownerId: string): Promise<Map<string, number>> {
    return new Map((await this.jobs.waiting(ownerId)).map((jobId, index) => [jobId, index + 1]));
  }

  /**
   * Repairs what a crash left: slots whose job no longer holds them are freed, and so are claims older than
   * STALE_CLAIM_MS whose job still waits (its start never happened: the process died, or its database write
   * failed, between the claim and the start); then every owner with waiting jobs gets their free slots
   * filled. Run on a timer.
   */
  async sweep(now: number = Date.now()): Promise<{ freed: number; owners: number }> {
    let freed = 0;
    const lines = new Map<string, Promise<string[]>>();
    const stillWaiting = (ownerId: string, jobId: string) => {
      if (!lines.has(ownerId)) lines.set(ownerId, this.jobs.waiting(ownerId));
      return lines.get(ownerId)!.then((line) => line.includes(jobId));
    };
    for (const slot of await this.board.held(this.kind)) {
      const stale = now - new Date(slot.claimedAt).getTime() >= STALE_CLAIM_MS;
      if ((await this.jobs.holdsSlot(slot.ownerId, slot.jobId)) && !(stale && (await stillWaiting(slot.ownerId, slot.jobId)))) continue;
      await this.board.freeSlot(slot.slotId, slot.jobId);
      freed += 1;
    }
    const owners = await this.jobs.ownersWaiting();
    for (const ownerId of owners) await this.fill(ownerId);
    return { freed, owners: owners.length };
  }

  /** Sweeps every `everyMs` until stopSweeping (one pass at a time; a failed pass is reported and the next runs). */
  startSweeping(everyMs: number, log: (message: string) => void): void {
    this.sweepTimer = setInterval(() => {
      this.sweeping = this.sweeping.then(() =>
        this.sweep().then(
          ({ freed }) => freed > 0 && log(`freed ${freed} ${this.kind} slot(s) whose jobs had ended without giving them back`),
          (error: Error) => this.warn(`${this.kind} slot sweep failed: ${error.message}`),
        ),
      );
    }, everyMs);
    this.sweepTimer.unref();
  }

  async stopSweeping(): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.sweeping;
  }

  private fill(ownerId: string): Promise<void> {
    const previous = this.fills.get(ownerId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.fillNow(ownerId));
    this.fills.set(ownerId, next);
    const forget = () => {
      if (this.fills.get(ownerId) === next) this.fills.delete(ownerId);
    };
    next.then(forget, forget);
    return next;
  }

  private async fillNow(ownerId: string): Promise<void> {
    let started = 0;
    for (const jobId of await this.jobs.waiting(ownerId)) {
      const slotId = await this.claimFor(ownerId, jobId);
      if (slotId === null) break;
      // Another process started it meanwhile: the slot claimed for it is given back.
      if (!(await this.jobs.leaveWaiting(ownerId, jobId))) {
        await this.board.freeSlot(slotId, jobId);
        continue;
      }
      started += 1;
      try {
        await this.jobs.dispatch(ownerId, jobId);
      } catch (error) {
        // The queue is away: this job is failed by its store, and the next ones keep waiting (the sweep tries
        // again) rather than each being failed in turn.
        this.warn(`${this.kind} job ${jobId} could not be handed to its queue: ${(error as Error).message}`);
        await this.board.freeSlot(slotId, jobId);
        break;
      }
    }
    if (started === 0) return;
    const left = await this.jobs.waiting(ownerId);
    if (left.length > 0) this.jobs.positionsChanged(ownerId, left.map((jobId, index) => ({ jobId, position: index + 1 })));
  }

  private async claimFor(ownerId: string, jobId: string): Promise<string | null> {
    for (let slot = 0; slot < this.perOwner; slot++) {
      const slotId = `${this.kind}:${ownerId}:${slot}`;
      if (await this.board.claim(slotId, { kind: this.kind, ownerId, jobId })) return slotId;
    }
    return null;
  }
}

/** What a service's use cases ask of its slots. */
export interface SlotsPort {
  /** The job (stored waiting) starts now or waits: its place in the owner's line, null when it started. */
  admit(ownerId: string, jobId: string): Promise<number | null>;
  /** The job ended (done, failed for good, cancelled, or gone): the owner's next waiting job starts. */
  release(ownerId: string, jobId: string): Promise<void>;
  /** The owner's waiting jobs and their places (1 = next). */
  places(ownerId: string): Promise<Map<string, number>>;
  /** The owner's line changed without a job starting (a waiting one was cancelled or deleted): each is told its place. */
  announcePlaces(ownerId: string): Promise<void>;
}

/** A job store's waiting line: what every service's store answers for its jobs of one kind. */
export interface WaitingStore {
  /** The owner's jobs waiting for a slot, oldest first. */
  waitingIds(ownerId: string): Promise<string[]>;
  ownersWaiting(): Promise<string[]>;
  /** Takes the job out of waiting; true only for the call that did. */
  leaveWaiting(ownerId: string, jobId: string): Promise<boolean>;
}

/**
 * A service's slots as a provider: the sweep runs while the service does, and the use cases admit and release
 * through it. The line is read from the service's store (`line`); a subclass says whether a job still holds
 * its slot, how a job is handed to its queue and how a waiting job is told its new place.
 */
export abstract class ServiceJobSlots implements SlotsPort, WaitingJobs, OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  private readonly slots: OwnerJobSlots;

  protected constructor(
    kind: string,
    perOwner: number,
    board: SlotBoard,
    private readonly sweepEveryMs: number,
    private readonly line: WaitingStore,
  ) {
    this.slots = new OwnerJobSlots(kind, perOwner, board, this, (message) => this.logger.warn(message));
  }

  waiting(ownerId: string): Promise<string[]> {
    return this.line.waitingIds(ownerId);
  }

  ownersWaiting(): Promise<string[]> {
    return this.line.ownersWaiting();
  }

  leaveWaiting(ownerId: string, jobId: string): Promise<boolean> {
    return this.line.leaveWaiting(ownerId, jobId);
  }

  onApplicationBootstrap(): void {
    this.slots.startSweeping(this.sweepEveryMs, (message) => this.logger.log(message));
  }

  onApplicationShutdown(): Promise<void> {
    return this.slots.stopSweeping();
  }

  /** One sweep pass now (the timer runs one every sweepEveryMs). */
  sweep(): Promise<{ freed: number; owners: number }> {
    return this.slots.sweep();
  }

  admit(ownerId: string, jobId: string): Promise<number | null> {
    return this.slots.admit(ownerId, jobId);
  }

  release(ownerId: string, jobId: string): Promise<void> {
    return this.slots.release(ownerId, jobId);
  }

  places(ownerId: string): Promise<Map<string, number>> {
    return this.slots.positions(ownerId);
  }

  async announcePlaces(ownerId: string): Promise<void> {
    const places = await this.slots.positions(ownerId);
    if (places.size > 0) this.positionsChanged(ownerId, [...places].map(([jobId, position]) => ({ jobId, position })));
  }

  positionsChanged(ownerId: string, positions: ReadonlyArray<{ jobId: string; position: number }>): void {
    void Promise.all(positions.map(({ jobId, position }) => this.tellPlace(ownerId, jobId, position))).catch((error: Error) =>
      this.logger.warn(`telling the new places in line failed: ${error.message}`),
    );
  }

  abstract holdsSlot(ownerId: string, jobId: string): Promise<boolean>;
  abstract dispatch(ownerId: string, jobId: string): Promise<void>;
  /** Tells the owner that a waiting job now stands at `position` (an event to their sockets). */
  protected abstract tellPlace(ownerId: string, jobId: string, position: number): Promise<void>;
}

/** What a stored job needs for its place in line. */
export interface LineEntry {
  _id: string;
  ownerId: string;
  waiting?: boolean;
  createdAt: Date;
}

/**
 * The waiting line over jobs held in memory (the services' in-memory stores for unit specs): waiting =
 * `waiting` set and still `active` (not finished or cancelled), oldest first.
 */
export class MemoryWaitingLine<Entry extends LineEntry> implements WaitingStore {
  constructor(
    private readonly entries: () => Iterable<Entry>,
    private readonly active: (entry: Entry) => boolean,
  ) {}

  private waitingEntries(): Entry[] {
    return [...this.entries()].filter((entry) => entry.waiting === true && this.active(entry));
  }

  async waitingIds(ownerId: string): Promise<string[]> {
    return this.waitingEntries()
      .filter((entry) => entry.ownerId === ownerId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id.localeCompare(b._id))
      .map((entry) => entry._id);
  }

  async ownersWaiting(): Promise<string[]> {
    return [...new Set(this.waitingEntries().map((entry) => entry.ownerId))];
  }

  async leaveWaiting(ownerId: string, id: string): Promise<boolean> {
    const entry = this.waitingEntries().find((candidate) => candidate._id === id && candidate.ownerId === ownerId);
    if (!entry) return false;
    entry.waiting = false;
    return true;
  }
}
