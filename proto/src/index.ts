/**
 * Message contracts shared by the gateway, the services and the browser: NATS subjects and their payload
 * schemas, the /ws live protocol (live.ts) and the product's vocabulary (vocabulary.ts, zod-free; the
 * browser imports it and live.ts by their own entry points). Senders build messages with these types;
 * receivers validate with the schemas at their edge.
 */
export * from './services';
export * from './health';
// The zod enums in media.ts and jobs.ts carry the same names as vocabulary.ts's types (and equal them).
export {
  AUDIO_EXPORT_FORMATS,
  CHAT_HISTORY_ON_JOIN,
  CHAT_MESSAGE_MAX,
  CHAT_RATE_LIMIT,
  CHAT_REFETCH_MS,
  COLLABORATION_PADS,
  CURSOR_MIN_INTERVAL_MS,
  PAD_PRESS_HIGHLIGHT_MS,
  PRESENCE_HEARTBEAT_MS,
  PRESENCE_TTL_MS,
  REMOTE_PAD_PULSE_MS,
  SESSION_NAME_MAX,
  SESSION_PARTICIPANTS_DEFAULT,
  SESSION_PARTICIPANTS_MAX,
  SESSION_PARTICIPANTS_MIN,
  SESSION_ROLES,
  TRANSPORT_START_LEAD_MS,
  type CollaborationPad,
  ENGINE_NAMES,
  EXPORT_MASTERINGS,
  EXPORT_STATUSES,
  EXPORT_TYPES,
  ENHANCEMENTS,
  JOB_PROVIDERS,
  JOB_STATUSES,
  JOB_TYPES,
  LIVE_PROTOCOL_VERSION,
  MASTER_TYPES,
  MASTERING_INTENSITY_DEFAULT,
  MASTERING_INTENSITY_MAX,
  MASTERING_INTENSITY_MIN,
  MASTERING_STYLES,
  MAX_UPLOAD_BYTES,
  PROJECT_EXPORT_FORMATS,
  PROJECT_NAME_MAX,
  PROJECT_SOURCES,
  SEPARATION_JOB_STATUSES,
  SHARE_LINK_MAX_DAYS,
  SHARE_LINK_STATUSES,
  STEM_TYPES,
  STEM_VERSIONS,
  STEM_VOLUME_MAX_DB,
  STEM_VOLUME_MIN_DB,
  STEM_VOLUME_STEP_DB,
  type Enhancement,
  type ProjectSource,
  type SeparationJobStatus,
} from './vocabulary';
export * from './media';
export * from './jobs';
export * from './export';
export * from './sessions';
export * from './live';
export * from './storage-keys';
