import { z } from 'zod';
import { Job } from './jobs';
import { EngineName, Stem, UpdateStemBody } from './media';
import { CursorPosition, LiveSessionState, SESSION_EVENT_SCHEMAS, SessionChange } from './sessions';
import { CHAT_MESSAGE_MAX, COLLABORATION_PADS, LIVE_PROTOCOL_VERSION } from './vocabulary';

/**
 * The live protocol on /ws, both directions, as one discriminated union on `type`. Frames are JSON text.
 * The gateway parses what clients send with `LiveClientMessage`, the browser what the gateway sends with
 * `LiveServerMessage`, both through `parseLiveFrame`; whatever fails becomes a typed `error` message.
 * Collaboration, job and export events join this union.
 */

/** Client → server: ask for a `pong` (the id comes back). */
export const PingMessage = z.object({ type: z.literal('ping'), id: z.union([z.string().max(200), z.number()]).nullable().optional() });

/**
 * Client → server: a mixer change to one stem; stored by the media service and announced as `stem_updated`
 * to the owner's other sockets. With an `id`, the sender is answered once it is stored (`stem_saved`) or
 * not (`error` carrying the same `id`), so it knows when its save has finished.
 */
export const StemUpdateMessage = UpdateStemBody.extend({
  type: z.literal('stem_update'),
  stemId: z.string().min(1).max(200),
  id: z.string().min(1).max(100).optional(),
}).strict();
export type StemUpdateMessage = z.infer<typeof StemUpdateMessage>;

/** Both ways: a performance pad hit, passed to the sender's other sockets as it is (a trigger, nothing stored). */
export const PadTriggerMessage = z
  .object({ type: z.literal('pad_trigger'), pad: z.string().min(1).max(40), velocity: z.number().int().min(0).max(127) })
  .strict();
export type PadTriggerMessage = z.infer<typeof PadTriggerMessage>;

/** Server → client, first on every connection: who is signed in, this socket's id, the protocol version. */
export const WelcomeMessage = z.object({
  type: z.literal('welcome'),
  userId: z.string(),
  /** Names this socket in a `PUT /api/stems/:id` (header x-stemdeck-live-connection): its own change is not echoed to it. */
  connectionId: z.string(),
  protocol: z.literal(LIVE_PROTOCOL_VERSION),
});

export const PongMessage = z.object({ type: z.literal('pong'), id: z.union([z.string(), z.number()]).nullable(), serverTime: z.number() });

export const LIVE_ERROR_CODES = ['malformed', 'unknown_type', 'invalid', 'failed', 'rate_limited'] as const;
/** Server → client (and what the browser's validator reports): a frame that could not be taken, and why. */
export const LiveErrorMessage = z.object({
  type: z.literal('error'),
  code: z.enum(LIVE_ERROR_CODES),
  message: z.string(),
  /** The type of the message that failed, when it had one. */
  for: z.string().optional(),
  /** The `id` of the message that failed, when it carried one (a `stem_update` waiting for its answer). */
  id: z.string().optional(),
});
export type LiveErrorMessage = z.infer<typeof LiveErrorMessage>;

export const StemsProgressMessage = z.object({ type: z.literal('stems_progress'), projectId: z.string(), engine: EngineName, progress: z.number() });
/** A separation waiting for one of the user's slots moved up their line (1 = next). */
export const StemsQueuedMessage = z.object({ type: z.literal('stems_queued'), projectId: z.string(), engine: EngineName, position: z.number().int().positive() });
/** The first `seconds` of every stem are playable at the stems' urls; `stems_ready` follows with the whole stems. */
export const StemsPartialMessage = z.object({ type: z.literal('stems_partial'), projectId: z.string(), engine: EngineName, seconds: z.number(), stems: z.array(Stem) });
export const StemsReadyMessage = z.object({ type: z.literal('stems_ready'), projectId: z.string(), engine: EngineName, stems: z.array(Stem) });
export const StemsFailedMessage = z.object({ type: z.literal('stems_failed'), projectId: z.string(), engine: EngineName, message: z.string() });
export const ProjectDeletedMessage = z.object({ type: z.literal('project_deleted'), projectId: z.string() });
/** An upload's analysis has finished: tempo, key and the decoded length of the recording. */
export const ProjectAnalysedMessage = z.object({ type: z.literal('project_analysed'), projectId: z.string(), bpm: z.number(), key: z.string(), duration: z.number() });
/** A stored mixer change, to every socket of the owner but the one that made it: apply `changes` to `stem.id`. */
export const StemUpdatedMessage = z.object({ type: z.literal('stem_updated'), stem: Stem, changes: UpdateStemBody });
export type StemUpdatedMessage = z.infer<typeof StemUpdatedMessage>;
/** Server → the sender of a `stem_update` that carried an `id`: that change is stored (the other sockets are told). */
export const StemSavedMessage = z.object({ type: z.literal('stem_saved'), id: z.string() });
export type StemSavedMessage = z.infer<typeof StemSavedMessage>;

/** A job of the owner's moved on (progress 0–100), finished (with its result) or failed (with its error). */
export const JobProgressMessage = z.object({ type: z.literal('job_progress'), job: Job });
export const JobCompletedMessage = z.object({ type: z.literal('job_completed'), job: Job });
export const JobFailedMessage = z.object({ type: z.literal('job_failed'), job: Job });

/**
 * Output links (the /output page in another browser, e.g. an OBS Browser Source): the studio page makes a
 * random 128-bit key (base64url, 22 characters), registers it on its signed-in socket with `output_key`,
 * and shows `<origin>/output?key=<key>`. Anyone holding that address may open the receive-only socket
 * /ws/output?key=<key>, which carries nothing but visual frames. A key belongs to the first user who
 * registers it; the gateway tells the studio socket how many such sockets listen (`output_presence`), and
 * the studio sends `output_frame`s only while some do.
 */
export const OUTPUT_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const OutputKey = z.string().regex(OUTPUT_KEY_PATTERN, 'an output key is 22 base64url characters');
/** The path of the receive-only output socket (the key in its query: ?key=). */
export const OUTPUT_SOCKET_PATH = '/ws/output';
/** One visual frame (the studio's binary frame: 'SV', version, mode, flags, pulse, tempo, lengths, bytes) at most this big. */
export const MAX_OUTPUT_FRAME_BYTES = 4096;
/** At most this many frames per second from one studio socket are passed on; the rest are dropped. */
export const MAX_OUTPUT_FRAMES_PER_SECOND = 60;
/** The close code and reason an output socket gets when its key is not (or no longer) registered by a studio. */
export const OUTPUT_INACTIVE_CLOSE_CODE = 4404;
export const OUTPUT_INACTIVE_REASON = 'This output link is not active: open the studio’s Video & Visuals';

/** Client → server: this studio socket streams to output links with this key (again after every reconnect). */
export const OutputKeyMessage = z.object({ type: z.literal('output_key'), key: OutputKey }).strict();
export type OutputKeyMessage = z.infer<typeof OutputKeyMessage>;
/** Client → server: one visual frame, base64, for the output sockets of this socket's key. */
export const OutputFrameMessage = z
  .object({ type: z.literal('output_frame'), data: z.string().max(Math.ceil(MAX_OUTPUT_FRAME_BYTES / 3) * 4).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64') })
  .strict();
export type OutputFrameMessage = z.infer<typeof OutputFrameMessage>;
/** Server → the studio socket that registered a key: how many output sockets listen on it now (on every change). */
export const OutputPresenceMessage = z.object({ type: z.literal('output_presence'), count: z.number().int().min(0) });
export type OutputPresenceMessage = z.infer<typeof OutputPresenceMessage>;

/** Whether bytes are one visual frame as the studio encodes it (magic 'SV', lengths that add up, not too big). */
export function isVisualFrameBytes(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || bytes.length > MAX_OUTPUT_FRAME_BYTES || bytes[0] !== 0x53 || bytes[1] !== 0x56) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return 16 + view.getUint16(12, true) + view.getUint16(14, true) === bytes.length;
}

/** NATS subjects of one output key, named by a hash of the key (the key itself never travels on the bus). */
export const outputSubjects = (keyHash: string) => ({
  /** Core NATS: the frames, binary, from the studio socket's gateway to the output sockets' gateways. */
  frames: `stemdeck.visuals.${keyHash}.frames`,
  /** Core NATS request/reply to the gateway holding the studio socket: `join` (and again every few seconds), `leave`, `claim`. */
  control: `stemdeck.visuals.${keyHash}.control`,
});
export const OutputControlRequest = z.discriminatedUnion('op', [
  z.object({ op: z.literal('join'), outputId: z.string().min(1).max(100) }),
  z.object({ op: z.literal('leave'), outputId: z.string().min(1).max(100) }),
  z.object({ op: z.literal('claim'), userId: z.string() }),
]);
export type OutputControlRequest = z.infer<typeof OutputControlRequest>;
export const OutputControlReply = z.object({ ok: z.boolean(), userId: z.string().optional() });
export type OutputControlReply = z.infer<typeof OutputControlReply>;

/**
 * Collaboration (sessions.ts has the session's events). A socket is in at most one session at a time: it
 * enters with `join_session` (after the REST join made the user a participant) and gets `session_joined` with
 * the whole state; then everything it sends goes to that session, and it receives that session's events.
 */
/** Client → server: enter a session's live room. `userId`, when given, must be the caller; `role` is the server's to say. */
export const JoinSessionMessage = z
  .object({ type: z.literal('join_session'), sessionId: z.string().min(1).max(200), userId: z.string().max(200).optional(), role: z.string().max(40).optional() })
  .strict();
export type JoinSessionMessage = z.infer<typeof JoinSessionMessage>;
/** Client → server: leave the live room (the user stays a participant; the REST DELETE removes them). */
export const LeaveSessionMessage = z.object({ type: z.literal('leave_session') }).strict();
/** Client → server: say something in the session's chat (stored, then sent to everyone as a `chat_message`). */
export const ChatSendMessage = z.object({ type: z.literal('chat_message'), message: z.string().trim().min(1, 'Message is required').max(CHAT_MESSAGE_MAX) }).strict();
export type ChatSendMessage = z.infer<typeof ChatSendMessage>;
/**
 * Client → server: something played or changed in the session. pad_trigger is passed on at once (host and
 * collaborators); transport and stem_update change the shared state (host and collaborators); participant_mute
 * is the listener's own choice (whose pads they hear) and is only acknowledged.
 */
export const AudioEventMessage = z.discriminatedUnion('eventType', [
  z.object({ type: z.literal('audio_event'), eventType: z.literal('pad_trigger'), eventData: z.object({ pad: z.enum(COLLABORATION_PADS), velocity: z.number().int().min(0).max(127) }).strict() }).strict(),
  z.object({ type: z.literal('audio_event'), eventType: z.literal('transport'), eventData: z.object({ action: z.enum(['play', 'pause']), position: z.number().min(0).max(24 * 3600) }).strict() }).strict(),
  z
    .object({
      type: z.literal('audio_event'),
      eventType: z.literal('stem_update'),
      stemId: z.string().min(1).max(200),
      eventData: z.union([z.object({ property: z.literal('volume'), value: z.number().min(0).max(1) }).strict(), z.object({ property: z.literal('muted'), value: z.boolean() }).strict()]),
    })
    .strict(),
  z.object({ type: z.literal('audio_event'), eventType: z.literal('participant_mute'), eventData: z.object({ targetUserId: z.string().min(1).max(200), muted: z.boolean() }).strict() }).strict(),
]);
export type AudioEventMessage = z.infer<typeof AudioEventMessage>;
/** Client → server: where this person's pointer is over the session page (fractions of its width and height), at most every 100 ms. */
export const CursorPositionMessage = z.object({ type: z.literal('cursor_position'), position: CursorPosition }).strict();
/** Server → client: this socket is in the session now, with everything it needs to catch up. */
export const SessionJoinedMessage = z.object({ type: z.literal('session_joined'), state: LiveSessionState, serverTime: z.number() });
/** Server → client: this socket is out of the session (it left, was removed, or the session ended). */
export const SessionLeftMessage = z.object({ type: z.literal('session_left'), sessionId: z.string(), reason: z.enum(['left', 'removed', 'ended']) });

/** The audio_event variant as one object (the gateway's dispatch), and what a change becomes for the service. */
export function sessionChangeOf(event: AudioEventMessage): SessionChange | null {
  if (event.eventType === 'transport') return { kind: 'transport', action: event.eventData.action, position: event.eventData.position };
  if (event.eventType === 'stem_update') {
    return event.eventData.property === 'volume'
      ? { kind: 'stem_volume', stemId: event.stemId, value: event.eventData.value }
      : { kind: 'stem_muted', stemId: event.stemId, value: event.eventData.value };
  }
  return null;
}

const clientMessages = [
  PingMessage,
  StemUpdateMessage,
  PadTriggerMessage,
  OutputKeyMessage,
  OutputFrameMessage,
  JoinSessionMessage,
  LeaveSessionMessage,
  ChatSendMessage,
  CursorPositionMessage,
] as const;
/** What only the gateway sends (it also relays the clients' `pad_trigger`). */
const serverOnlyMessages = [
  WelcomeMessage,
  PongMessage,
  LiveErrorMessage,
  StemsProgressMessage,
  StemsQueuedMessage,
  StemsPartialMessage,
  StemsReadyMessage,
  StemsFailedMessage,
  ProjectDeletedMessage,
  ProjectAnalysedMessage,
  StemUpdatedMessage,
  StemSavedMessage,
  JobProgressMessage,
  JobCompletedMessage,
  JobFailedMessage,
  OutputPresenceMessage,
  SessionJoinedMessage,
  SessionLeftMessage,
  ...SESSION_EVENT_SCHEMAS,
] as const;
const serverMessages = [...serverOnlyMessages, PadTriggerMessage] as const;

/**
 * What a browser may send. `audio_event` has variants by `eventType` (its own union), so the union on `type`
 * is checked in two steps: the type picks the schema.
 */
const clientSchemaByType = new Map<string, z.ZodTypeAny>([...clientMessages.map((schema) => [schema.shape.type.value, schema] as const), ['audio_event', AudioEventMessage]]);
export type LiveClientMessage = z.infer<(typeof clientMessages)[number]> | AudioEventMessage;
export const LiveClientMessage: z.ZodType<LiveClientMessage, z.ZodTypeDef, unknown> = z.unknown().transform((value, ctx) => {
  const schema = clientSchemaByType.get((value as { type?: string } | null)?.type ?? '');
  if (!schema) {
    ctx.addIssue({ code: 'custom', message: 'Unknown message type' });
    return z.NEVER;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as LiveClientMessage;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

/** What the gateway sends. */
export const LiveServerMessage = z.discriminatedUnion('type', [...serverMessages]);
export type LiveServerMessage = z.infer<typeof LiveServerMessage>;

/** Every message on /ws, either way. */
export type LiveMessage = LiveClientMessage | LiveServerMessage;
export type LiveMessageOf<T extends LiveClientMessage['type']> = Extract<LiveClientMessage, { type: T }>;

export type ParsedLiveFrame<T> = { ok: true; message: T } | { ok: false; error: LiveErrorMessage };

/** Frames above this size are refused by the gateway (the socket closes with 1009). */
export const MAX_LIVE_MESSAGE_BYTES = 64 * 1024;

/** "name: Required; duration: Expected number, received string" — one line naming each bad field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

const malformed = (message: string): ParsedLiveFrame<never> => ({ ok: false, error: { type: 'error', code: 'malformed', message } });

/**
 * The one validator at each end of /ws: JSON text in, a typed message or a typed error out; never throws.
 * `schema` is the union of what that end may receive (`LiveClientMessage` or `LiveServerMessage`).
 */
export function parseLiveFrame<T extends { type: string }>(text: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>, known: ReadonlySet<string>): ParsedLiveFrame<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return malformed('Malformed message: not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return malformed('Malformed message: expected a JSON object');
  const { type } = value as { type?: unknown };
  if (typeof type !== 'string' || type === '') return malformed('Malformed message: missing string field "type"');
  if (!known.has(type)) return { ok: false, error: { type: 'error', code: 'unknown_type', message: `Unknown message type "${type}"` } };
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, error: { type: 'error', code: 'invalid', message: describeZodError(parsed.error), for: type } };
  return { ok: true, message: parsed.data };
}

export const LIVE_CLIENT_MESSAGE_TYPES: ReadonlySet<LiveClientMessage['type']> = new Set([...clientMessages.map((schema) => schema.shape.type.value), 'audio_event' as const]);
export const LIVE_SERVER_MESSAGE_TYPES: ReadonlySet<LiveServerMessage['type']> = new Set(serverMessages.map((schema) => schema.shape.type.value));

/** Parses what a browser sent (the gateway's edge). */
export const parseClientFrame = (text: string): ParsedLiveFrame<LiveClientMessage> => parseLiveFrame(text, LiveClientMessage, LIVE_CLIENT_MESSAGE_TYPES);
/** Parses what the gateway sent (the browser's edge). */
export const parseServerFrame = (text: string): ParsedLiveFrame<LiveServerMessage> => parseLiveFrame(text, LiveServerMessage, LIVE_SERVER_MESSAGE_TYPES);
