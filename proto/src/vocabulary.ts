/**
 * The product's vocabulary as plain values and types, without zod: the schemas in this package derive
 * their enums from these lists, libs/audio and the services import them, and the browser bundle can take
 * them without pulling in a validation library.
 */

export const STEM_TYPES = ['vocals', 'drums', 'bass', 'other'] as const;
export type StemType = (typeof STEM_TYPES)[number];

export const ENGINE_NAMES = ['fast', 'hybrid', 'quality'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** Stem gain in dB, as the mixer's slider (−60…+12, step 0.1). */
export const STEM_VOLUME_MIN_DB = -60;
export const STEM_VOLUME_MAX_DB = 12;
export const STEM_VOLUME_STEP_DB = 0.1;

/** A separation job's life: queued, processing, then completed or failed. */
export const SEPARATION_JOB_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type SeparationJobStatus = (typeof SEPARATION_JOB_STATUSES)[number];

/** Where a project's audio came from: an audio or video upload, or none ('manual'). */
export const PROJECT_SOURCES = ['audio', 'video', 'manual'] as const;
export type ProjectSource = (typeof PROJECT_SOURCES)[number];

/** Upload limit from the product spec ("Max 500MB"). */
export const MAX_UPLOAD_BYTES = 524_288_000;

/** A project's name after trimming: 1–120 characters. */
export const PROJECT_NAME_MAX = 120;

/** Version of the /ws protocol (proto/src/live.ts), sent in `welcome`; a change that old clients cannot read raises it. */
export const LIVE_PROTOCOL_VERSION = 1;

/** AI Mastering: what a master is made of (the current mix, each stem, or the rhythm and melodic groups). */
export const MASTER_TYPES = ['full-mix', 'per-stem', 'stem-groups'] as const;
export type MasterType = (typeof MASTER_TYPES)[number];

/** The mastering chains' characters. */
export const MASTERING_STYLES = ['balanced', 'warm', 'punchy', 'open', 'smooth'] as const;
export type MasteringStyle = (typeof MASTERING_STYLES)[number];

/** Mastering intensity 1 Light, 2 Medium (the default), 3 Heavy. */
export const MASTERING_INTENSITY_MIN = 1;
export const MASTERING_INTENSITY_MAX = 3;
export const MASTERING_INTENSITY_DEFAULT = 2;
export type MasteringIntensity = 1 | 2 | 3;
export const MASTERING_INTENSITIES: readonly MasteringIntensity[] = [1, 2, 3];
export const MASTERING_INTENSITY_NAMES: Readonly<Record<MasteringIntensity, string>> = { 1: 'Light', 2: 'Medium', 3: 'Heavy' };

/** What a job of the jobs service does, who does it, and its life (processing, then completed or failed). */
export const JOB_TYPES = ['mastering', 'enhance', 'video'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JOB_PROVIDERS = ['local', 'landr', 'dolby', 'runway'] as const;
export type JobProvider = (typeof JOB_PROVIDERS)[number];
export const JOB_STATUSES = ['processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * Generated music videos: which part of the song (the whole song, its chorus loop, or a chosen span), how
 * large, and the style prompt that steers the look (at most VIDEO_PROMPT_MAX characters).
 */
export const VIDEO_DURATIONS = ['full', 'chorus', 'custom'] as const;
export type VideoDuration = (typeof VIDEO_DURATIONS)[number];
export const VIDEO_RESOLUTIONS = ['720p', '1080p', '4k'] as const;
export type VideoResolutionName = (typeof VIDEO_RESOLUTIONS)[number];
export const VIDEO_PROMPT_MAX = 500;
/** The chorus loop's length in seconds (a shorter song is taken whole). */
export const VIDEO_CHORUS_SECONDS = 30;
export const VIDEO_DEFAULT_PROMPT = 'Neon city at night, lights pulsing with the beat, slow drifting camera, deep blue and magenta glow';

/** Enhancement: what a cleanup pass can do to a stem (at least one per job). */
export const ENHANCEMENTS = ['noiseReduction', 'loudnessNormalization', 'speechEnhancement'] as const;
export type Enhancement = (typeof ENHANCEMENTS)[number];

/** Which of a stem's versions the mixer plays: the separated original, or its newest enhanced version. */
export const STEM_VERSIONS = ['original', 'enhanced'] as const;
export type StemVersion = (typeof STEM_VERSIONS)[number];

/** Export & Share: what an audio export holds (every stem, one rendered mix, or the listed stems). */
export const EXPORT_TYPES = ['individual', 'full-mix', 'selected'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/**
 * Audio export formats: wav-24-48 PCM 24-bit 48 kHz; wav-16-44 PCM 16-bit 44.1 kHz with TPDF dither;
 * aiff-24-48 big-endian PCM 24-bit 48 kHz; mp3-320 CBR 320 kbps; flac lossless at the stems' rate.
 */
export const AUDIO_EXPORT_FORMATS = ['wav-24-48', 'wav-16-44', 'aiff-24-48', 'mp3-320', 'flac'] as const;
export type AudioExportFormat = (typeof AUDIO_EXPORT_FORMATS)[number];

/**
 * Which variant of the audio: raw (the versions the mixer plays, unmastered), landr (the latest completed
 * mastering result), dolby (the latest enhanced stems), both (the mastered and the enhanced variants).
 */
export const EXPORT_MASTERINGS = ['raw', 'landr', 'dolby', 'both'] as const;
export type ExportMastering = (typeof EXPORT_MASTERINGS)[number];

/** Project data for other tools: Spotify-style analysis, the OSC/MIDI map, TouchDesigner and Resolume kits. */
export const PROJECT_EXPORT_FORMATS = ['spotifyJson', 'oscMidiConfig', 'touchdesigner', 'resolume'] as const;
export type ProjectExportFormat = (typeof PROJECT_EXPORT_FORMATS)[number];

/** An export's life: processing, then completed (downloadable until it expires) or failed. */
export const EXPORT_STATUSES = ['processing', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** A share link is active until it expires or its owner revokes it. */
export const SHARE_LINK_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ShareLinkStatus = (typeof SHARE_LINK_STATUSES)[number];
/** Share link expiry: none, or 1–365 days. */
export const SHARE_LINK_MAX_DAYS = 365;

/**
 * Collaborative sessions: a host opens a session on one of their projects; others join by its id or invite
 * link as collaborators (play pads, mix, start and stop) or viewers (listen, watch, chat). Only the host
 * removes people, changes roles and ends the session.
 */
export const SESSION_ROLES = ['host', 'collaborator', 'viewer'] as const;
export type SessionRole = (typeof SESSION_ROLES)[number];
export const SESSION_PARTICIPANTS_MIN = 2;
export const SESSION_PARTICIPANTS_MAX = 16;
export const SESSION_PARTICIPANTS_DEFAULT = 8;
export const SESSION_NAME_MAX = 100;
/** Chat: trimmed, 1–500 characters; the list is fetched again every 5 s (new messages also arrive live). */
export const CHAT_MESSAGE_MAX = 500;
export const CHAT_REFETCH_MS = 5000;
/** A late joiner gets this many of the newest chat messages with the session's state. */
export const CHAT_HISTORY_ON_JOIN = 50;
/** Chat rate limit per user (all sessions, all gateways): at most this many messages per window. */
export const CHAT_RATE_LIMIT = { messages: 5, windowMs: 5000 } as const;
/** A browser sends its cursor at most this often; the gateway drops faster ones. */
export const CURSOR_MIN_INTERVAL_MS = 100;
/** A pad hit by another participant lights this long; one's own press this long. */
export const REMOTE_PAD_PULSE_MS = 200;
export const PAD_PRESS_HIGHLIGHT_MS = 150;
/** The session's eight collaboration pads, in order. */
export const COLLABORATION_PADS = ['Kick', 'Snare', 'Hi-Hat', 'Open Hat', 'Crash', 'Ride', 'Tom 1', 'Tom 2'] as const;
export type CollaborationPad = (typeof COLLABORATION_PADS)[number];
/**
 * Presence: every socket in a session refreshes its entry in NATS every PRESENCE_HEARTBEAT_MS; an entry not
 * refreshed for PRESENCE_TTL_MS is gone (a crashed gateway's people go offline within ~25 s).
 */
export const PRESENCE_HEARTBEAT_MS = 5000;
export const PRESENCE_TTL_MS = 20_000;
/** A shared play starts this far after the server hears it, so every participant can schedule it in time. */
export const TRANSPORT_START_LEAD_MS = 400;

/** A user's storage, in bytes, as GET /api/me/usage answers it. */
export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
  /** Never negative: derived files (stems, masters) may take a user past the quota after an upload. */
  remainingBytes: number;
}

/** Storage sizes as people read them: "312 MB", "4.88 GB", "5 GB" (1 GB = 1024³ bytes, at most two decimals). */
export function formatStorage(bytes: number): string {
  const [value, unit] = bytes >= 1024 ** 3 ? [bytes / 1024 ** 3, 'GB'] : [bytes / 1024 ** 2, 'MB'];
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits))} ${unit}`;
}
