import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@stemdeck/platform';
import { PRESENCE_TTL_MS } from '@stemdeck/proto';
import type { ParticipantDocument } from '../sessions/session.schema';
import { toParticipant } from '../sessions/session-views';
import {
  PRESENCE_BOARD,
  SESSION_EVENTS,
  SESSION_STORE,
  type PresenceBoard,
  type SessionEventPublisher,
  type SessionStore,
} from '../sessions/sessions.ports';

const pairKey = (sessionId: string, userId: string) => `${sessionId}\n${userId}`;

/** What one sweep pass changed. */
export interface SweepOutcome {
  wentOffline: number;
  cameOnline: number;
}

/**
 * Who the service has announced as online, per session, and the transitions between online and offline.
 * The presence keys themselves live in NATS (the gateways put them again while their sockets are open);
 * this set is what the service last told everyone, so user_joined and user_left alternate per person: a
 * user's first socket announces them, their last socket leaving (or their keys expiring, seen by the
 * sweep) announces them gone. Changes for one person in one session run one at a time.
 */
@Injectable()
export class PresenceTracker {
  private readonly announced = new Map<string, Set<string>>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    @Inject(PRESENCE_BOARD) private readonly board: PresenceBoard,
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'find' | 'findParticipant' | 'touchParticipant'>,
    @Inject(SESSION_EVENTS) private readonly events: SessionEventPublisher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** When the sweep last repeated that someone is out of a session (session + user → ms). */
  private readonly reminded = new Map<string, number>();

  private remindGone(sessionId: string, userId: string, isActive: boolean, hostUserId: string): void {
    const now = this.clock.now();
    for (const [key, at] of this.reminded) if (now - at >= PRESENCE_TTL_MS) this.reminded.delete(key);
    const key = pairKey(sessionId, userId);
    if (this.reminded.has(key)) return;
    this.reminded.set(key, now);
    const message = isActive
      ? ({ type: 'participant_removed', sessionId, userId, byUserId: hostUserId } as const)
      : ({ type: 'session_ended', sessionId } as const);
    this.events.publish(sessionId, { origin: null, message });
  }

  /** At boot: whoever has a key now was announced by an earlier run of the service. */
  async rebuild(): Promise<void> {
    for (const { sessionId, userId } of await this.board.onlinePairs()) this.mark(sessionId, userId);
  }

  isAnnounced(sessionId: string, userId: string): boolean {
    return this.announced.get(sessionId)?.has(userId) ?? false;
  }

  /** A socket entered: its key is put, and the user's first socket announces them (user_joined). */
  enter(participant: ParticipantDocument, connectionId: string): Promise<void> {
    const { sessionId, userId } = participant;
    return this.exclusive(sessionId, userId, async () => {
      await this.board.put(sessionId, userId, connectionId);
      if (!this.isAnnounced(sessionId, userId)) await this.announceOnline(sessionId, userId);
    });
  }

  /** A socket left: its key is deleted, and the user's last socket announces them gone (user_left). */
  exit(sessionId: string, userId: string, connectionId: string): Promise<void> {
    return this.exclusive(sessionId, userId, async () => {
      await this.board.delete(sessionId, userId, connectionId);
      if (this.isAnnounced(sessionId, userId) && !(await this.board.isOnline(sessionId, userId))) await this.announceOffline(sessionId, userId);
    });
  }

  /** The user is no longer in the session (left or removed; participant_removed says so): keys and announcement go. */
  removeUser(sessionId: string, userId: string): Promise<void> {
    return this.exclusive(sessionId, userId, async () => {
      this.unmark(sessionId, userId);
      await this.board.deleteUser(sessionId, userId);
    });
  }

  /** The session ended (session_ended says so): nobody in it is announced any more. */
  forgetSession(sessionId: string): void {
    this.announced.delete(sessionId);
  }

  /**
   * One pass over the bucket: announced users with no key left (their gateway stopped putting them) go
   * offline; users with a key whom nobody announced (a socket whose key had lapsed and came back) come online.
   */
  async sweep(): Promise<SweepOutcome> {
    const outcome: SweepOutcome = { wentOffline: 0, cameOnline: 0 };
    const present = new Set<string>();
    const unannounced: Array<{ sessionId: string; userId: string }> = [];
    for (const pair of await this.board.onlinePairs()) {
      present.add(pairKey(pair.sessionId, pair.userId));
      if (!this.isAnnounced(pair.sessionId, pair.userId)) unannounced.push(pair);
    }
    const gone: Array<{ sessionId: string; userId: string }> = [];
    for (const [sessionId, users] of this.announced) {
      for (const userId of users) if (!present.has(pairKey(sessionId, userId))) gone.push({ sessionId, userId });
    }
    for (const { sessionId, userId } of gone) {
      await this.exclusive(sessionId, userId, async () => {
        // Looked at again alone: a socket may have entered since the pass read the bucket.
        if (!this.isAnnounced(sessionId, userId) || (await this.board.isOnline(sessionId, userId))) return;
        await this.announceOffline(sessionId, userId);
        outcome.wentOffline += 1;
      });
    }
    for (const { sessionId, userId } of unannounced) {
      await this.exclusive(sessionId, userId, async () => {
        if (this.isAnnounced(sessionId, userId)) return;
        const session = await this.sessions.find(sessionId);
        if (!session) return;
        if (!session.isActive || !(await this.sessions.findParticipant(sessionId, userId))) {
          // A key of someone no longer in an active session. Usually a heartbeat that raced their removal and
          // simply expires — but a gateway that missed the removal (core NATS delivers at most once, e.g. during
          // its reconnect) keeps their socket in the room and its key alive: say it again, once per key lifetime.
          this.remindGone(sessionId, userId, session.isActive, session.hostUserId);
          return;
        }
        if (await this.announceOnline(sessionId, userId)) outcome.cameOnline += 1;
      });
    }
    return outcome;
  }

  private async announceOnline(sessionId: string, userId: string): Promise<boolean> {
    const participant = await this.sessions.touchParticipant(sessionId, userId, new Date(this.clock.now()));
    if (!participant) return false;
    this.mark(sessionId, userId);
    this.events.publish(sessionId, {
      origin: null,
      message: { type: 'user_joined', sessionId, userId, role: participant.role, participant: toParticipant(participant, true) },
    });
    return true;
  }

  private async announceOffline(sessionId: string, userId: string): Promise<void> {
    this.unmark(sessionId, userId);
    const participant = await this.sessions.touchParticipant(sessionId, userId, new Date(this.clock.now()));
    if (!participant) return;
    this.events.publish(sessionId, { origin: null, message: { type: 'user_left', sessionId, userId, lastActive: participant.lastActive.toISOString() } });
  }

  private mark(sessionId: string, userId: string): void {
    const users = this.announced.get(sessionId) ?? new Set<string>();
    users.add(userId);
    this.announced.set(sessionId, users);
  }

  private unmark(sessionId: string, userId: string): void {
    const users = this.announced.get(sessionId);
    users?.delete(userId);
    if (users?.size === 0) this.announced.delete(sessionId);
  }

  /** Runs `work` after every earlier change for the same person in the same session. */
  private exclusive<T>(sessionId: string, userId: string, work: () => Promise<T>): Promise<T> {
    const key = pairKey(sessionId, userId);
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }
}
