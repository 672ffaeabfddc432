import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, type Clock } from '@stemdeck/platform';
import {
  VIEWERS_CANNOT_PLAY,
  CURSOR_MIN_INTERVAL_MS,
  PRESENCE_HEARTBEAT_MS,
  PRESENCE_KEY_PART,
  presenceKey,
  sessionChangeOf,
  type LiveMessageOf,
  type SessionEvent,
  type SessionEventMessage,
  type SessionRole,
} from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { participantNameOf } from '../sessions/caller';
import { SessionsClient } from '../sessions/sessions.client';
import { LiveHub, type LiveClient } from './live.hub';
import { SESSION_ROOM_BUS, type SessionRoomBus } from './session-room-bus.adapter';

/** How early a cursor may arrive on its slot and still be passed on. */
export const CURSOR_JITTER_MS = 30;

/** The sessions service refuses viewers' changes in the same words; pads never reach it, so the room says it. */
export const JOIN_AS_YOURSELF = 'You can only join a session as yourself';
export const JOIN_FIRST = 'Join a session first';
const SESSION_NOT_FOUND = 'Session not found';

const canPlay = (role: SessionRole | null) => role === 'host' || role === 'collaborator';

/** One socket in one session's live room. */
interface Membership {
  client: LiveClient;
  sessionId: string;
  name: string;
  /** Cached from session_joined and role_changed; the service decides stored changes itself. */
  role: SessionRole | null;
  /** session_joined was sent; until then the room's events wait in `held`, in order. */
  entered: boolean;
  held: SessionEventMessage[];
  /** Settles when the join did (true: in the room). */
  joined: Promise<boolean>;
  /** When this socket's next cursor is due at the allowed rate (one per CURSOR_MIN_INTERVAL_MS on average). */
  cursorDueAt: number;
  /** This socket's shared-state changes, one after another in the order sent. */
  changes: Promise<void>;
  /** The presence put in flight, so leaving waits for it (a put landing after the delete would revive the key). */
  presencePut: Promise<void>;
  /** The role a role_changed event gave this user (heard while entering, it wins over the entering state's). */
  roleFromEvent: SessionRole | null;
}

interface Room {
  members: Map<string, Membership>;
  /** This replica's one subscription to the session's events, shared by its sockets there. */
  subscription: Promise<() => void>;
}

/**
 * The live rooms of collaborative sessions on /ws. A socket is in at most one session. This replica subscribes
 * to a session's events (core NATS, sessionEventsSubject) while it has a socket there, and passes each event to
 * its sockets in that session but the one it came from; no replica holds state another needs. The sessions
 * service decides and stores everything lasting (who is in, roles, chat, the mix, the transport); pad hits and
 * cursors are ephemeral and go straight to the subject (the fast path). Presence: the service puts a socket's key
 * when it enters and deletes it when it leaves; this replica puts it again every PRESENCE_HEARTBEAT_MS, so the
 * sockets of a replica that dies go offline when their keys expire.
 */
@Injectable()
export class SessionRoom implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SessionRoom.name);
  private readonly members = new Map<string, Membership>();
  private readonly rooms = new Map<string, Room>();
  private heartbeat?: NodeJS.Timeout;

  constructor(
    @Inject(LiveHub) hub: Pick<LiveHub, 'on' | 'onClose'>,
    @Inject(SessionsClient) private readonly sessions: Pick<SessionsClient, 'liveEnter' | 'liveExit' | 'liveChange' | 'postMessage'>,
    @Inject(SESSION_ROOM_BUS) private readonly bus: SessionRoomBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    hub.on('join_session', (client, message) => this.join(client, message));
    hub.on('leave_session', (client) => this.leaveByRequest(client));
    hub.on('chat_message', (client, message) => this.chat(client, message));
    hub.on('audio_event', (client, message) => this.audioEvent(client, message));
    hub.on('cursor_position', (client, message) => this.cursor(client, message));
    hub.onClose((client) => this.socketClosed(client));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.connect();
    this.heartbeat = setInterval(() => void this.putPresence(), PRESENCE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Takes this replica's sockets out of their sessions (so others see them leave now, not at expiry), then disconnects. */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    const entered = [...this.members.values()].filter((member) => member.entered);
    for (const member of this.members.values()) this.drop(member);
    await Promise.allSettled(entered.map((member) => this.exit(member)));
    await this.bus.close();
  }

  /** Sockets of this replica in `sessionId` (for tests and diagnostics). */
  socketsIn(sessionId: string): number {
    return this.rooms.get(sessionId)?.members.size ?? 0;
  }

  async join(client: LiveClient, message: LiveMessageOf<'join_session'>): Promise<void> {
    if (message.userId !== undefined && message.userId !== client.user.id) throw new DomainError(403, JOIN_AS_YOURSELF);
    // The id becomes part of a NATS subject and a KV key: one that is not a plain id matches no session.
    if (!PRESENCE_KEY_PART.test(message.sessionId)) throw new DomainError(404, SESSION_NOT_FOUND);
    const current = this.members.get(client.connectionId);
    if (current?.sessionId === message.sessionId) return this.enterAgain(current);

    let settle!: (inRoom: boolean) => void;
    const member: Membership = {
      client,
      sessionId: message.sessionId,
      name: participantNameOf(client.user),
      role: null,
      entered: false,
      held: [],
      joined: new Promise((resolve) => (settle = resolve)),
      cursorDueAt: -Infinity,
      changes: Promise.resolve(),
      presencePut: Promise.resolve(),
      roleFromEvent: null,
    };
    // The new membership replaces the old one before anything is awaited: a socket that closes, leaves or joins
    // elsewhere meanwhile finds this one (and takes it out), never a gap.
    this.members.set(client.connectionId, member);
    try {
      if (current) await this.leave(current, 'left');
      if (!this.isCurrent(member)) return settle(false);
      // Subscribed before entering: every event after the state the service answers with reaches this socket.
      await this.addToRoom(member);
      const state = await this.sessions.liveEnter({ userId: client.user.id, sessionId: member.sessionId, connectionId: client.connectionId });
      if (!this.isCurrent(member)) {
        // The socket closed, left or joined elsewhere while entering: out of the room, and its presence key goes now.
        settle(false);
        this.drop(member);
        await this.exit(member);
        return;
      }
      // A role change heard while entering is newer than (or the same as) the state's.
      member.role = member.roleFromEvent ?? state.role;
      client.send({ type: 'session_joined', state, serverTime: this.clock.now() });
      member.entered = true;
      for (const held of member.held.splice(0)) client.send(held);
      settle(true);
    } catch (error) {
      settle(false);
      this.drop(member); // only ever takes out this membership, wherever it still is
      throw error;
    }
  }

  /** join_session again for the session the socket is in: the current state again (a client that lost track). */
  private async enterAgain(member: Membership): Promise<void> {
    if (!(await member.joined) || !this.isCurrent(member)) throw new DomainError(404, SESSION_NOT_FOUND);
    const { client } = member;
    const state = await this.sessions.liveEnter({ userId: client.user.id, sessionId: member.sessionId, connectionId: client.connectionId });
    if (!this.isCurrent(member)) return;
    // The cached role stays as the session's events keep it (this state may be older than one of them).
    client.send({ type: 'session_joined', state, serverTime: this.clock.now() });
  }

  private async leaveByRequest(client: LiveClient): Promise<void> {
    const member = this.members.get(client.connectionId);
    if (member) await this.leave(member, 'left');
  }

  private async chat(client: LiveClient, message: LiveMessageOf<'chat_message'>): Promise<void> {
    const member = await this.enteredMember(client);
    const stored = await this.sessions.postMessage({
      userId: client.user.id,
      name: member.name,
      sessionId: member.sessionId,
      message: message.message,
      origin: client.connectionId,
    });
    // Everyone else gets it from the session's events; the sender's own socket is skipped there, so it is told here.
    client.send({ type: 'chat_message', sessionId: member.sessionId, message: stored });
  }

  private async audioEvent(client: LiveClient, event: LiveMessageOf<'audio_event'>): Promise<void> {
    const member = await this.enteredMember(client);
    if (event.eventType === 'participant_mute') return; // whose pads a listener hears is their own browser's choice
    if (event.eventType === 'pad_trigger') {
      if (!canPlay(member.role)) throw new DomainError(403, VIEWERS_CANNOT_PLAY);
      const { pad, velocity } = event.eventData;
      this.bus.publish(member.sessionId, {
        origin: client.connectionId,
        message: { type: 'pad_triggered', sessionId: member.sessionId, userId: client.user.id, pad, velocity },
      });
      return;
    }
    const change = sessionChangeOf(event);
    if (!change) return;
    const request = { userId: client.user.id, sessionId: member.sessionId, connectionId: client.connectionId, change };
    const stored = member.changes.then(() => this.sessions.liveChange(request));
    member.changes = stored.then(
      () => undefined,
      () => undefined,
    );
    await stored;
  }

  private cursor(client: LiveClient, message: LiveMessageOf<'cursor_position'>): void {
    const member = this.members.get(client.connectionId);
    if (!member?.entered) return; // pointer moves before joining are not errors worth answering ten times a second
    const now = this.clock.now();
    // At most one per CURSOR_MIN_INTERVAL_MS on average (a cell-rate limit): a cursor may come up to
    // CURSOR_JITTER_MS early — the network and a busy event loop bunch a browser's evenly spaced moves — but
    // early ones use up the following slots, so the rate over time never rises above the limit.
    if (now < member.cursorDueAt - CURSOR_JITTER_MS) return;
    member.cursorDueAt = Math.max(now, member.cursorDueAt) + CURSOR_MIN_INTERVAL_MS;
    this.bus.publish(member.sessionId, {
      origin: client.connectionId,
      message: { type: 'cursor_update', sessionId: member.sessionId, userId: client.user.id, name: member.name, position: message.position },
    });
  }

  private socketClosed(client: LiveClient): void {
    const member = this.members.get(client.connectionId);
    if (!member) return;
    this.drop(member);
    // A socket still entering is let out by its join once the service has answered.
    if (member.entered) void this.exit(member);
  }

  /** The socket's membership once its join has finished; a socket in no session is told to join first. */
  private async enteredMember(client: LiveClient): Promise<Membership> {
    const member = this.members.get(client.connectionId);
    if (!member || !(await member.joined) || !this.isCurrent(member)) throw new DomainError(409, JOIN_FIRST);
    return member;
  }

  private isCurrent(member: Membership): boolean {
    return this.members.get(member.client.connectionId) === member;
  }

  private async addToRoom(member: Membership): Promise<void> {
    let room = this.rooms.get(member.sessionId);
    if (!room) {
      const sessionId = member.sessionId;
      room = { members: new Map(), subscription: this.bus.subscribe(sessionId, (event) => this.onEvent(sessionId, event)) };
      this.rooms.set(sessionId, room);
      room.subscription.catch((error: Error) => this.logger.warn(`could not subscribe to session ${sessionId}: ${error.message}`));
    }
    room.members.set(member.client.connectionId, member);
    await room.subscription;
  }

  /** Forgets the socket's membership here; the last socket of a session on this replica ends its subscription. */
  private drop(member: Membership): void {
    if (this.isCurrent(member)) this.members.delete(member.client.connectionId);
    const room = this.rooms.get(member.sessionId);
    if (!room || room.members.get(member.client.connectionId) !== member) return;
    room.members.delete(member.client.connectionId);
    if (room.members.size > 0) return;
    this.rooms.delete(member.sessionId);
    room.subscription.then(
      (unsubscribe) => unsubscribe(),
      () => undefined,
    );
  }

  /** The socket leaves its session: told at once, then the service deletes its presence key (unless it already did). */
  private async leave(member: Membership, reason: 'left' | 'removed' | 'ended', tellService = true): Promise<void> {
    const wasEntered = member.entered;
    this.drop(member);
    member.client.send({ type: 'session_left', sessionId: member.sessionId, reason });
    if (tellService && wasEntered) await this.exit(member);
  }

  private async exit(member: Membership): Promise<void> {
    await member.presencePut;
    const { client, sessionId } = member;
    await this.sessions.liveExit({ userId: client.user.id, sessionId, connectionId: client.connectionId }).catch((error: Error) => {
      this.logger.warn(`leaving session ${sessionId} for ${client.connectionId} failed: ${error.message}`);
    });
  }

  private onEvent(sessionId: string, { origin, message }: SessionEvent): void {
    const room = this.rooms.get(sessionId);
    if (!room) return;
    const members = [...room.members.values()];
    for (const member of members) {
      if (member.client.connectionId === origin) continue;
      if (member.entered) member.client.send(message);
      else member.held.push(message);
    }
    switch (message.type) {
      case 'participant_removed':
        // The service has already deleted their presence keys; the socket only leaves the room.
        for (const member of members) {
          if (member.client.user.id === message.userId) void this.leave(member, message.byUserId === message.userId ? 'left' : 'removed', false);
        }
        break;
      case 'session_ended':
        // Its presence keys go now rather than at expiry (leaving an ended session is harmless to the service).
        for (const member of members) void this.leave(member, 'ended');
        break;
      case 'role_changed':
        for (const member of members) {
          if (member.client.user.id === message.userId) member.role = member.roleFromEvent = message.role;
        }
        break;
      default:
        break;
    }
  }

  /** Every socket in a session keeps its presence key alive; a failed put is logged and the next round tries again. */
  private async putPresence(): Promise<void> {
    const entered = [...this.members.values()].filter((member) => member.entered);
    const puts = entered.map((member) => {
      const { sessionId, client } = member;
      // The same value the sessions service puts when the socket enters (the key is what counts).
      const value = JSON.stringify({ userId: client.user.id, connectionId: client.connectionId });
      const put = this.bus.putPresence(presenceKey(sessionId, client.user.id, client.connectionId), value);
      member.presencePut = put.catch(() => undefined);
      return put;
    });
    const failed = (await Promise.allSettled(puts)).filter((result) => result.status === 'rejected');
    if (failed.length > 0) this.logger.warn(`presence heartbeat failed for ${failed.length} of ${puts.length} sockets: ${String((failed[0] as PromiseRejectedResult).reason)}`);
  }
}
