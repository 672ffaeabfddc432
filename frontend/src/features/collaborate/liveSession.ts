import type { ChatMessage, LiveSessionState, Participant, Session, SessionMix, SessionRole, Transport } from '@stemdeck/proto';
import type { LiveServerMessage } from '../live/liveConnection';
import { participantName } from './participants';

/**
 * The live session as this browser sees it: what `session_joined` brought and every event since. A pure
 * reducer (no React, no audio): the page keeps it with useReducer and does the side effects (sound, toasts)
 * beside it.
 */

export interface RemoteCursor {
  userId: string;
  name: string;
  /** Fractions of the page's width and height. */
  x: number;
  y: number;
}

export interface LiveSession {
  sessionId: string;
  session: Session;
  /** This person's role (the host can change it). */
  role: SessionRole;
  participants: Participant[];
  mix: SessionMix;
  transport: Transport;
  /** The chat that came with the state and live since (the polled list is merged in by the chat panel). */
  chat: ChatMessage[];
  cursors: Record<string, RemoteCursor>;
}

/** Why this browser is no longer in a session it was in. */
export type LeftReason = 'left' | 'removed' | 'ended';

export interface LiveRoomState {
  current: LiveSession | null;
  /** Set when the session ended or this person was removed while in it (the tabs say so). */
  lastLeft: { sessionId: string; reason: LeftReason } | null;
}

export const initialRoomState: LiveRoomState = { current: null, lastLeft: null };

export type RoomAction = { type: 'message'; message: LiveServerMessage; selfUserId: string } | { type: 'left_locally' } | { type: 'chat_posted'; message: ChatMessage };

/** Chat lists merged by id, oldest first. */
export function mergeChat(...lists: readonly (readonly ChatMessage[])[]): ChatMessage[] {
  const byId = new Map<string, ChatMessage>();
  for (const list of lists) for (const message of list) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

function upsertParticipant(people: readonly Participant[], person: Participant): Participant[] {
  const found = people.some((p) => p.userId === person.userId);
  return found ? people.map((p) => (p.userId === person.userId ? person : p)) : [...people, person];
}

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const { [key]: _removed, ...rest } = record;
  return rest;
}

function fromJoined(state: LiveSessionState): LiveSession {
  return {
    sessionId: state.session.id,
    session: state.session,
    role: state.role,
    participants: state.participants,
    mix: state.mix,
    transport: state.transport,
    chat: state.chat,
    cursors: {},
  };
}

/** Applies one message from /ws to the live session; messages of other sessions (or while in none) change nothing. */
export function roomReducer(state: LiveRoomState, action: RoomAction): LiveRoomState {
  if (action.type === 'left_locally') return state.current ? { current: null, lastLeft: null } : state;
  const current = state.current;
  if (action.type === 'chat_posted') {
    if (!current || action.message.sessionId !== current.sessionId) return state;
    return { ...state, current: { ...current, chat: mergeChat(current.chat, [action.message]) } };
  }
  const { message, selfUserId } = action;
  if (message.type === 'session_joined') return { current: fromJoined(message.state), lastLeft: null };
  if (!current || !('sessionId' in message) || message.sessionId !== current.sessionId) return state;
  const set = (changes: Partial<LiveSession>): LiveRoomState => ({ ...state, current: { ...current, ...changes } });
  switch (message.type) {
    case 'session_left':
      return { current: null, lastLeft: message.reason === 'left' ? null : { sessionId: current.sessionId, reason: message.reason } };
    case 'session_ended':
      return { current: null, lastLeft: { sessionId: current.sessionId, reason: 'ended' } };
    case 'user_joined':
      return set({ participants: upsertParticipant(current.participants, { ...message.participant, isOnline: true }) });
    case 'user_left':
      return set({
        participants: current.participants.map((p) => (p.userId === message.userId ? { ...p, isOnline: false, lastActive: message.lastActive } : p)),
        cursors: withoutKey(current.cursors, message.userId),
      });
    case 'participant_removed':
      if (message.userId === selfUserId) return { current: null, lastLeft: message.byUserId === selfUserId ? null : { sessionId: current.sessionId, reason: 'removed' } };
      return set({ participants: current.participants.filter((p) => p.userId !== message.userId), cursors: withoutKey(current.cursors, message.userId) });
    case 'role_changed':
      return set({
        participants: current.participants.map((p) => (p.userId === message.userId ? { ...p, role: message.role } : p)),
        role: message.userId === selfUserId ? message.role : current.role,
      });
    case 'audio_sync':
      return set({ transport: message.transport });
    case 'stem_changed':
      return set({ mix: { ...current.mix, [message.stemId]: message.mix } });
    case 'chat_message':
      return set({ chat: mergeChat(current.chat, [message.message]) });
    case 'cursor_update':
      if (message.userId === selfUserId) return state;
      return set({ cursors: { ...current.cursors, [message.userId]: { userId: message.userId, name: message.name, x: message.position.x, y: message.position.y } } });
    default:
      return state;
  }
}

/** A toast the page shows for a live event (null: none). Computed against the state before the event. */
export interface RoomNotice {
  title: string;
  description: string;
  type: 'success' | 'info' | 'error';
}

const ENDED_NOTICE: RoomNotice = { title: 'Left Session', description: 'The host ended the session.', type: 'info' };
const REMOVED_NOTICE: RoomNotice = { title: 'Left Session', description: 'The host removed you from the session.', type: 'info' };

const STEM_PROPERTY_WORDS = (value: number | boolean, property: 'volume' | 'muted') =>
  property === 'volume' ? `to ${Math.round(Number(value) * 100)}%` : value ? 'muted' : 'unmuted';

/** The toast for a live event about someone else (joins, departures, removals, stem and transport changes, the session's end). */
export function noticeOf(state: LiveRoomState, message: LiveServerMessage, selfUserId: string, stemName: (stemId: string) => string): RoomNotice | null {
  const current = state.current;
  if (!current || !('sessionId' in message) || message.sessionId !== current.sessionId) return null;
  const nameOf = (userId: string, fallback?: string) => {
    const person = current.participants.find((p) => p.userId === userId);
    return participantName(person ?? { name: fallback, userId });
  };
  switch (message.type) {
    case 'user_joined': {
      if (message.userId === selfUserId) return null;
      const wasOnline = current.participants.some((p) => p.userId === message.userId && p.isOnline);
      return wasOnline ? null : { title: 'User Joined', description: `${participantName(message.participant)} joined the session.`, type: 'info' };
    }
    case 'user_left': {
      // Someone who left the session altogether was already announced (participant_removed).
      const known = current.participants.some((p) => p.userId === message.userId && p.isOnline);
      return message.userId === selfUserId || !known ? null : { title: 'User Left', description: `${nameOf(message.userId)} left the session.`, type: 'info' };
    }
    case 'participant_removed':
      if (message.userId === selfUserId) {
        return message.byUserId === selfUserId ? null : REMOVED_NOTICE;
      }
      // Said again (the service repeats a removal a gateway may have missed): the list no longer has them.
      if (!current.participants.some((p) => p.userId === message.userId)) return null;
      return message.byUserId === message.userId
        ? { title: 'User Left', description: `${nameOf(message.userId)} left the session.`, type: 'info' }
        : message.byUserId === selfUserId
          ? null // the host's own removal is confirmed by its request's toast
          : { title: 'Participant Removed', description: `${nameOf(message.userId)} has been removed from the session.`, type: 'info' };
    case 'session_ended':
      return current.role === 'host' ? null : ENDED_NOTICE;
    case 'session_left':
      // The gateway's word that this socket is out (after the event above, or alone): the same toast, shown once.
      if (message.reason === 'removed') return REMOVED_NOTICE;
      return message.reason === 'ended' && current.role !== 'host' ? ENDED_NOTICE : null;
    case 'stem_changed':
      if (message.userId === selfUserId) return null;
      return { title: 'Stem Updated', description: `${nameOf(message.userId)} set ${stemName(message.stemId)} ${STEM_PROPERTY_WORDS(message.value, message.property)}.`, type: 'info' };
    case 'audio_sync':
      if (message.userId === selfUserId) return null;
      return { title: 'Audio Event', description: `${nameOf(message.userId)} ${message.transport.playing ? 'started' : 'paused'} playback.`, type: 'info' };
    default:
      return null;
  }
}
