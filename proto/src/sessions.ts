import { z } from 'zod';
import { replyOf } from './media';
import {
  CHAT_MESSAGE_MAX,
  COLLABORATION_PADS,
  SESSION_NAME_MAX,
  SESSION_PARTICIPANTS_DEFAULT,
  SESSION_PARTICIPANTS_MAX,
  SESSION_PARTICIPANTS_MIN,
  SESSION_ROLES,
} from './vocabulary';

/**
 * The sessions service's contracts: collaborative sessions on a host's project, their participants (with
 * roles and presence), their chat, and their shared state (the stems' mix and the transport). The sessions
 * service owns the documents and decides every change; the gateways carry the live traffic: each gateway
 * replica subscribes to the event subject of the sessions its sockets are in (sessionEventsSubject) and
 * passes those events on, so no replica holds state another needs.
 */
export const SESSIONS_SUBJECTS = {
  create: 'stemdeck.sessions.create',
  listForUser: 'stemdeck.sessions.list',
  participants: 'stemdeck.sessions.participants',
  join: 'stemdeck.sessions.join',
  removeParticipant: 'stemdeck.sessions.participants.remove',
  setRole: 'stemdeck.sessions.participants.role',
  listMessages: 'stemdeck.sessions.messages.list',
  postMessage: 'stemdeck.sessions.messages.post',
  /** Who may hear a session's project: the session and the caller's participant record (404 for others). */
  access: 'stemdeck.sessions.access',
  /** A socket enters a session's live room: the state a late joiner needs. */
  liveEnter: 'stemdeck.sessions.live.enter',
  /** A socket leaves the live room (closed, left, or navigated away); the user stays a participant. */
  liveExit: 'stemdeck.sessions.live.exit',
  /** A shared-state change from a socket (transport, stem mix); the service checks the role, stores it, announces it. */
  liveChange: 'stemdeck.sessions.live.change',
} as const;

/** Core NATS subject carrying one session's events (SessionEvent) to every gateway with a socket in it. */
export const sessionEventsSubject = (sessionId: string) => `stemdeck.sessions.events.${sessionId}`;
/** The wildcard a gateway may use to see every session's events. */
export const SESSION_EVENTS_WILDCARD = 'stemdeck.sessions.events.*';

/**
 * Presence lives in this NATS KV bucket (max age PRESENCE_TTL_MS): one key per socket in a session,
 * `<sessionId>.<userId>.<connectionId>`, put again by its gateway every PRESENCE_HEARTBEAT_MS and deleted when
 * the socket leaves. A user is online in a session while any of their keys exists.
 */
export const PRESENCE_BUCKET = 'stemdeck_session_presence';
export const presenceKey = (sessionId: string, userId: string, connectionId: string) => `${sessionId}.${userId}.${connectionId}`;
/** KV keys allow [-/_=.a-zA-Z0-9]: ids (uuids, Keycloak subject ids) are made of those. */
export const PRESENCE_KEY_PART = /^[-_=a-zA-Z0-9]+$/;

/** Why a viewer's pad hit, mix change or play is refused (by the gateway for pads, by the service for the rest). */
export const VIEWERS_CANNOT_PLAY = 'Viewers can listen and chat, but only the host and collaborators can play or mix';

export const SessionRole = z.enum(SESSION_ROLES);
export type SessionRole = z.infer<typeof SessionRole>;
/** The roles a join or the host's role change may give (there is one host: the one who made the session). */
export const GuestRole = z.enum(['collaborator', 'viewer']);
export type GuestRole = z.infer<typeof GuestRole>;

const id = z.string().min(1).max(200);
const iso = z.string();

export const Session = z.object({
  id: z.string(),
  name: z.string(),
  projectId: z.string(),
  /** The project's name when the session was made. */
  projectName: z.string(),
  hostUserId: z.string(),
  hostName: z.string(),
  maxParticipants: z.number().int(),
  isActive: z.boolean(),
  /** Participants now (the host included; removed and departed people not). */
  participantCount: z.number().int(),
  createdAt: iso,
});
export type Session = z.infer<typeof Session>;

export const Participant = z.object({
  id: z.string(),
  sessionId: z.string(),
  userId: z.string(),
  /** The signed-in name (Keycloak's preferred username) at the time they joined. */
  name: z.string(),
  role: SessionRole,
  isOnline: z.boolean(),
  /** When they were last seen in the live session (ISO); their join time until then. */
  lastActive: iso,
});
export type Participant = z.infer<typeof Participant>;

export const ChatMessage = z.object({
  id: z.string(),
  sessionId: z.string(),
  userId: z.string(),
  name: z.string(),
  message: z.string(),
  type: z.literal('text'),
  createdAt: iso,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** One stem's level in the session's shared mix (0–1, shown as a percentage) and whether it is muted. */
export const StemMix = z.object({ volume: z.number().min(0).max(1), muted: z.boolean() });
export type StemMix = z.infer<typeof StemMix>;
/** The shared mix: stem id → level and mute. A stem not listed plays at full level, unmuted. */
export const SessionMix = z.record(z.string(), StemMix);
export type SessionMix = z.infer<typeof SessionMix>;

/**
 * The shared transport. Playing: the song is at `position` seconds at server time `at` (epoch ms) and runs on
 * from there (`at` is a little in the future when play is pressed, so everyone can start together). Paused:
 * it stands at `position`.
 */
export const Transport = z.object({ playing: z.boolean(), position: z.number().min(0), at: z.number() });
export type Transport = z.infer<typeof Transport>;

/** Everything a socket entering a session needs (late joiners included). */
export const LiveSessionState = z.object({
  session: Session,
  role: SessionRole,
  participants: z.array(Participant),
  mix: SessionMix,
  transport: Transport,
  /** The newest CHAT_HISTORY_ON_JOIN messages, oldest first. */
  chat: z.array(ChatMessage),
});
export type LiveSessionState = z.infer<typeof LiveSessionState>;

// ---- REST bodies (the gateway's edge; messages as the product shows them) ----

const requiredText = (message: string, max: number) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, `At most ${max} characters`);

/** POST /api/sessions. `hostUserId` must be the caller. */
export const CreateSessionBody = z
  .object({
    name: requiredText('Session name is required', SESSION_NAME_MAX),
    projectId: requiredText('Project is required', 200),
    hostUserId: requiredText('Host user ID is required', 200),
    maxParticipants: z
      .number({ invalid_type_error: 'Maximum participants must be a number' })
      .int('Maximum participants must be a whole number')
      .min(SESSION_PARTICIPANTS_MIN, `Maximum participants must be at least ${SESSION_PARTICIPANTS_MIN}`)
      .max(SESSION_PARTICIPANTS_MAX, `Maximum participants can be at most ${SESSION_PARTICIPANTS_MAX}`)
      .default(SESSION_PARTICIPANTS_DEFAULT),
  })
  .strict();
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

/** POST /api/sessions/:id/join. `userId` must be the caller; a first join takes `role`, a rejoin keeps the role the host gave. */
export const JoinSessionBody = z
  .object({
    userId: requiredText('User ID is required', 200),
    role: z.enum(SESSION_ROLES, { errorMap: () => ({ message: 'Role must be host, collaborator or viewer' }) }).default('viewer'),
  })
  .strict();
export type JoinSessionBody = z.infer<typeof JoinSessionBody>;

/** PATCH /api/sessions/:id/participants/:userId (the host only). */
export const SetRoleBody = z.object({ role: z.enum(GuestRole.options, { errorMap: () => ({ message: 'Role must be collaborator or viewer' }) }) }).strict();
export type SetRoleBody = z.infer<typeof SetRoleBody>;

/** POST /api/sessions/:id/messages. `userId` must be the caller. */
export const PostMessageBody = z
  .object({
    userId: requiredText('User ID is required', 200),
    message: z
      .string({ required_error: 'Message is required', invalid_type_error: 'Message is required' })
      .trim()
      .min(1, 'Message is required')
      .max(CHAT_MESSAGE_MAX, `Messages can be at most ${CHAT_MESSAGE_MAX} characters`),
    type: z.literal('text').default('text'),
  })
  .strict();
export type PostMessageBody = z.infer<typeof PostMessageBody>;

// ---- NATS requests (the gateway → the sessions service); `userId` is always the signed-in caller ----

const caller = { userId: id };
const named = { userId: id, name: z.string().min(1).max(200) };

export const CreateSessionRequest = z.object({ ...named, projectName: z.string(), body: CreateSessionBody });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;
export const ListUserSessionsRequest = z.object(caller);
export const SessionScopedRequest = z.object({ ...caller, sessionId: id });
export type SessionScopedRequest = z.infer<typeof SessionScopedRequest>;
export const JoinSessionRequest = z.object({ ...named, sessionId: id, role: SessionRole });
export type JoinSessionRequest = z.infer<typeof JoinSessionRequest>;
/** The caller removes `targetUserId` (themselves: they leave; the host leaving ends the session). */
export const RemoveParticipantRequest = z.object({ ...caller, sessionId: id, targetUserId: id });
export type RemoveParticipantRequest = z.infer<typeof RemoveParticipantRequest>;
export const SetRoleRequest = z.object({ ...caller, sessionId: id, targetUserId: id, role: GuestRole });
export type SetRoleRequest = z.infer<typeof SetRoleRequest>;
export const PostMessageRequest = z.object({ ...named, sessionId: id, message: z.string().trim().min(1).max(CHAT_MESSAGE_MAX), origin: z.string().optional() });
export type PostMessageRequest = z.infer<typeof PostMessageRequest>;
export const LiveEnterRequest = z.object({ ...caller, sessionId: id, connectionId: id });
export type LiveEnterRequest = z.infer<typeof LiveEnterRequest>;
export const LiveExitRequest = LiveEnterRequest;
export type LiveExitRequest = LiveEnterRequest;

/** A shared-state change: the transport (play at a position / pause at one) or one stem's level or mute. */
export const SessionChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('transport'), action: z.enum(['play', 'pause']), position: z.number().min(0).max(24 * 3600) }),
  z.object({ kind: z.literal('stem_volume'), stemId: id, value: z.number().min(0).max(1) }),
  z.object({ kind: z.literal('stem_muted'), stemId: id, value: z.boolean() }),
]);
export type SessionChange = z.infer<typeof SessionChange>;
export const LiveChangeRequest = z.object({ ...caller, sessionId: id, connectionId: id, change: SessionChange });
export type LiveChangeRequest = z.infer<typeof LiveChangeRequest>;

export const SessionReply = replyOf(Session);
export const SessionListReply = replyOf(z.array(Session));
export const ParticipantReply = replyOf(Participant);
export const ParticipantListReply = replyOf(z.array(Participant));
export const JoinSessionReply = replyOf(z.object({ session: Session, participant: Participant }));
export const SessionAccessReply = replyOf(z.object({ session: Session, participant: Participant }));
export const ChatMessageReply = replyOf(ChatMessage);
export const ChatMessageListReply = replyOf(z.array(ChatMessage));
export const LiveSessionStateReply = replyOf(LiveSessionState);
export const OkReply = replyOf(z.object({}));

// ---- Live events of one session (sessionEventsSubject), passed to its sockets as they are ----

const inSession = { sessionId: z.string() };
const CursorPosition = z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) });

/** Someone came online in the session (their first socket entered), or joined it. */
export const UserJoinedMessage = z.object({ type: z.literal('user_joined'), ...inSession, userId: z.string(), role: SessionRole, participant: Participant });
/** Someone's last socket left the session (or their gateway stopped answering): they are offline since `lastActive`. */
export const UserLeftMessage = z.object({ type: z.literal('user_left'), ...inSession, userId: z.string(), lastActive: iso });
/** The host removed a participant, or the participant left: they are no longer in the session. */
export const ParticipantRemovedMessage = z.object({ type: z.literal('participant_removed'), ...inSession, userId: z.string(), byUserId: z.string() });
export const RoleChangedMessage = z.object({ type: z.literal('role_changed'), ...inSession, userId: z.string(), role: SessionRole });
/** The host ended the session (it is inactive: nobody can join, nothing more is played). */
export const SessionEndedMessage = z.object({ type: z.literal('session_ended'), ...inSession });
/** The shared transport changed (by `userId`): every participant follows it on their own audio clock. */
export const AudioSyncMessage = z.object({ type: z.literal('audio_sync'), ...inSession, userId: z.string(), transport: Transport });
export const CursorUpdateMessage = z.object({ type: z.literal('cursor_update'), ...inSession, userId: z.string(), name: z.string(), position: CursorPosition });
export const PadTriggeredMessage = z.object({
  type: z.literal('pad_triggered'),
  ...inSession,
  userId: z.string(),
  pad: z.enum(COLLABORATION_PADS),
  velocity: z.number().int().min(0).max(127),
});
export const StemChangedMessage = z.object({
  type: z.literal('stem_changed'),
  ...inSession,
  userId: z.string(),
  stemId: z.string(),
  property: z.enum(['volume', 'muted']),
  value: z.union([z.number(), z.boolean()]),
  mix: StemMix,
});
export const ChatMessageEvent = z.object({ type: z.literal('chat_message'), ...inSession, message: ChatMessage });

export const SESSION_EVENT_SCHEMAS = [
  UserJoinedMessage,
  UserLeftMessage,
  ParticipantRemovedMessage,
  RoleChangedMessage,
  SessionEndedMessage,
  AudioSyncMessage,
  CursorUpdateMessage,
  PadTriggeredMessage,
  StemChangedMessage,
  ChatMessageEvent,
] as const;
export const SessionEventMessage = z.discriminatedUnion('type', [...SESSION_EVENT_SCHEMAS]);
export type SessionEventMessage = z.infer<typeof SessionEventMessage>;

/** What travels on sessionEventsSubject: the message, and the socket it came from (which does not get it back). */
export const SessionEvent = z.object({ origin: z.string().nullable(), message: SessionEventMessage });
export type SessionEvent = z.infer<typeof SessionEvent>;

export { CursorPosition };
