import type { SessionEvent, SessionRole, StemMix, StemRecord, Transport } from '@stemdeck/proto';
import type { ChatMessageDocument, ParticipantDocument, SessionDocument } from './session.schema';

/** One field of a stem's level in the shared mix. */
export type StemMixChange = { volume: number } | { muted: boolean };

/** A stem's stored level and mute; a field never set is full level, unmuted. */
export function stemMixOf(mix: Record<string, Partial<StemMix>> | undefined, stemId: string): StemMix {
  const entry = mix?.[stemId];
  return { volume: entry?.volume ?? 1, muted: entry?.muted ?? false };
}

/** The whole stored mix with every entry complete. */
export function completeMix(mix: Record<string, Partial<StemMix>> | undefined): Record<string, StemMix> {
  return Object.fromEntries(Object.keys(mix ?? {}).map((stemId) => [stemId, stemMixOf(mix, stemId)]));
}

/*
 * What the session use-cases need from the world, each behind a token: sessions.wiring binds them to the
 * real repositories and adapters, the unit specs to small in-memory fakes (./testing).
 */

/**
 * Sessions and their participants. A session is reached through its id and the caller's participant record
 * (the use-cases refuse anyone who is not in it); the id alone finds it only for a join (an invite is the id).
 */
export interface SessionStore {
  /** Stores the session with its host as the first participant. */
  create(session: SessionDocument, host: ParticipantDocument): Promise<void>;
  find(sessionId: string): Promise<SessionDocument | null>;
  /** Sessions the user hosts or is a participant of, newest first. */
  listForUser(userId: string): Promise<SessionDocument[]>;
  /** The host's active sessions on one project. */
  listActiveForProject(hostUserId: string, projectId: string): Promise<SessionDocument[]>;
  /** Marks the session inactive; false when it already was (or is gone). */
  end(sessionId: string): Promise<boolean>;
  setTransport(sessionId: string, transport: Transport): Promise<void>;
  /**
   * Changes one field of one stem's level in the shared mix, leaving the other as stored (two changes close
   * together — a level and a mute, or two people — never undo each other); the stem's level and mute after it.
   */
  updateStemMix(sessionId: string, stemId: string, change: StemMixChange): Promise<StemMix>;

  findParticipant(sessionId: string, userId: string): Promise<ParticipantDocument | null>;
  /** In the order they joined. */
  listParticipants(sessionId: string): Promise<ParticipantDocument[]>;
  /** Participant counts of these sessions (0 for one with none). */
  countParticipants(sessionIds: string[]): Promise<Map<string, number>>;
  /** Adds a participant; false when the user already is one (the stored record stays as it was). */
  addParticipant(participant: ParticipantDocument): Promise<boolean>;
  /** false when there was no such participant. */
  deleteParticipant(sessionId: string, userId: string): Promise<boolean>;
  setRole(sessionId: string, userId: string, role: SessionRole): Promise<ParticipantDocument | null>;
  /** Sets lastActive; null when the user is not (or no longer) a participant. */
  touchParticipant(sessionId: string, userId: string, at: Date): Promise<ParticipantDocument | null>;
}
export const SESSION_STORE = Symbol('SessionStore');

/** A session's chat. */
export interface ChatStore {
  add(message: ChatMessageDocument): Promise<void>;
  /** The newest `limit` messages, oldest first. */
  newest(sessionId: string, limit: number): Promise<ChatMessageDocument[]>;
}
export const CHAT_STORE = Symbol('ChatStore');

/** Publishes a session's events to every gateway with a socket in it (core NATS, fire and forget). */
export interface SessionEventPublisher {
  publish(sessionId: string, event: SessionEvent): void;
}
export const SESSION_EVENTS = Symbol('SessionEventPublisher');

/** The media service's projects and stems (owner-scoped there: a foreign project is absent). */
export interface SessionProjects {
  /** The project's name; null when it is not the owner's (or does not exist). */
  projectName(ownerId: string, projectId: string): Promise<string | null>;
  /** The project's active stems (none before its first separation has finished). */
  stems(ownerId: string, projectId: string): Promise<StemRecord[]>;
}
export const SESSION_PROJECTS = Symbol('SessionProjects');

/**
 * Presence: one key per socket in a session (`<sessionId>.<userId>.<connectionId>`) in a NATS KV bucket whose
 * entries expire unless their gateway puts them again. A user is online in a session while any key exists.
 */
export interface PresenceBoard {
  put(sessionId: string, userId: string, connectionId: string): Promise<void>;
  delete(sessionId: string, userId: string, connectionId: string): Promise<void>;
  /** Deletes every key of the user in the session (removed or left). */
  deleteUser(sessionId: string, userId: string): Promise<void>;
  /** The users with a key in the session now. */
  onlineUsers(sessionId: string): Promise<Set<string>>;
  isOnline(sessionId: string, userId: string): Promise<boolean>;
  /** Every session/user pair with a key now. */
  onlinePairs(): Promise<Array<{ sessionId: string; userId: string }>>;
}
export const PRESENCE_BOARD = Symbol('PresenceBoard');
