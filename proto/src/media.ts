import { z } from 'zod';
import { ENGINE_NAMES, PROJECT_NAME_MAX, PROJECT_SOURCES, SEPARATION_JOB_STATUSES, STEM_TYPES, STEM_VERSIONS, STEM_VOLUME_MAX_DB, STEM_VOLUME_MIN_DB } from './vocabulary';

/**
 * The media service's contracts: projects, stems, uploads, analysis and separation jobs.
 * Request/reply subjects carry object keys and metadata only, never file bytes.
 */
export const MEDIA_SUBJECTS = {
  ingestUpload: 'stemdeck.media.uploads.ingest',
  createProject: 'stemdeck.media.projects.create',
  listProjects: 'stemdeck.media.projects.list',
  getProject: 'stemdeck.media.projects.get',
  renameProject: 'stemdeck.media.projects.rename',
  deleteProject: 'stemdeck.media.projects.delete',
  projectAudio: 'stemdeck.media.projects.audio',
  projectAnalysis: 'stemdeck.media.projects.analysis',
  listStems: 'stemdeck.media.stems.list',
  updateStem: 'stemdeck.media.stems.update',
  stemAudio: 'stemdeck.media.stems.audio',
  attachEnhancedStems: 'stemdeck.media.stems.enhanced.attach',
  requestSeparation: 'stemdeck.media.separation.request',
  listEngines: 'stemdeck.media.engines.list',
} as const;

/** JetStream work queue for separation jobs (durable; acknowledged after the stems are stored). */
export const SEPARATION_STREAM = 'STEMDECK_SEPARATION';
export const SEPARATION_JOB_SUBJECT = 'stemdeck.media.separation.jobs';
export const SEPARATION_CONSUMER = 'media-separation';

/**
 * Events the gateway forwards to the owner's live connection, one subject per owner and event type
 * (`stemdeck.media.events.<owner, hex>.<type>`), so a subscriber hears only what it acts on: a replica
 * passes by the events of owners with no socket on it before reading them, and the services that keep records
 * of a project hear its deletion alone, not every mixer change.
 */
export const MEDIA_EVENTS_WILDCARD = 'stemdeck.media.events.>';
export const mediaEventSubject = (ownerId: string, type: MediaEvent['type']): string =>
  `stemdeck.media.events.${Buffer.from(ownerId).toString('hex')}.${type}`;
/** Every owner's `project_deleted` and nothing else. */
export const PROJECT_DELETED_EVENTS = 'stemdeck.media.events.*.project_deleted';
/**
 * The owner a per-owner event subject names (`stemdeck.<service>.events.<owner, hex>` and `tail` more tokens), or
 * null for a subject of another shape.
 */
export function eventSubjectOwner(subject: string, service: string, tail: number): string | null {
  const parts = subject.split('.');
  if (parts.length !== 4 + tail || parts[0] !== 'stemdeck' || parts[1] !== service || parts[2] !== 'events' || !/^(?:[0-9a-f]{2})+$/.test(parts[3]!)) return null;
  return Buffer.from(parts[3]!, 'hex').toString();
}
/** The owner a media event subject names, or null for a subject of another shape. */
export const mediaEventOwner = (subject: string): string | null => eventSubjectOwner(subject, 'media', 1);

export const StemType = z.enum(STEM_TYPES);
export type StemType = z.infer<typeof StemType>;

export const EngineName = z.enum(ENGINE_NAMES);
export type EngineName = z.infer<typeof EngineName>;

export const StemVersion = z.enum(STEM_VERSIONS);
export type StemVersion = z.infer<typeof StemVersion>;

/** A stem's enhanced version: the enhance job that made it (its output is the audio) and when. */
export const EnhancedStemVersion = z.object({ jobId: z.string(), createdAt: z.string() });
export type EnhancedStemVersion = z.infer<typeof EnhancedStemVersion>;

export const SpotifyFeatures = z.object({
  danceability: z.number(),
  energy: z.number(),
  valence: z.number(),
  acousticness: z.number(),
  instrumentalness: z.number(),
  liveness: z.number(),
  speechiness: z.number(),
  loudness: z.number(),
  tempo: z.number(),
  key: z.number().int(),
  mode: z.union([z.literal(0), z.literal(1)]),
  time_signature: z.number().int(),
  duration_ms: z.number().int(),
});
export type SpotifyFeatures = z.infer<typeof SpotifyFeatures>;

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  originalFile: z.string(),
  duration: z.number(),
  bpm: z.number().nullable(),
  key: z.string().nullable(),
  /** 'audio' or 'video' for uploads; 'manual' for projects created without a file. */
  source: z.enum(PROJECT_SOURCES),
  /** The engine whose stems GET /stems returns; null until one has finished. */
  activeEngine: EngineName.nullable(),
  createdAt: z.string(),
  /**
   * The newest separation job per engine (reads of a project carry them), so a client that missed a live
   * event can converge from the server's state.
   */
  jobs: z.lazy(() => z.array(SeparationJob)).optional(),
});
export type Project = z.infer<typeof Project>;

/**
 * A stem as the media service stores and sends it on NATS. Where it can be fetched is the gateway's
 * business: the gateway adds its own HTTP url (`Stem`) before anything reaches a browser.
 */
export const StemRecord = z.object({
  id: z.string(),
  projectId: z.string(),
  type: StemType,
  engine: EngineName,
  volume: z.number(),
  muted: z.boolean(),
  /** Mixer solo: when any stem is soloed, only soloed stems sound. */
  soloed: z.boolean(),
  quality: z.string(),
  /** Which version the mixer plays (and a full-mix master or export takes): 'original' until switched. */
  version: StemVersion,
  /** The newest enhanced version, null until an enhance job has finished for this stem. */
  enhanced: EnhancedStemVersion.nullable(),
});
export type StemRecord = z.infer<typeof StemRecord>;

/** A stem as HTTP and /ws clients see it: the record plus the url the gateway serves its audio at. */
export const Stem = StemRecord.extend({ url: z.string() });
export type Stem = z.infer<typeof Stem>;

export const SeparationJob = z.object({
  id: z.string(),
  projectId: z.string(),
  engine: EngineName,
  status: z.enum(SEPARATION_JOB_STATUSES),
  progress: z.number().min(0).max(1),
  error: z.string().nullable(),
  /**
   * While the job runs: how many seconds of every stem are already stored and playable (progressive stems),
   * so a client that missed `stems_partial` can load them; null before that.
   */
  partialSeconds: z.number().nullable().optional(),
  /**
   * A queued job waiting for one of its owner's separation slots (each user runs a few at once; the rest
   * wait, oldest first): its place in that user's line, 1 = next. Absent once it is handed to a worker.
   */
  queuePosition: z.number().int().positive().optional(),
});
export type SeparationJob = z.infer<typeof SeparationJob>;

export const EngineInfo = z.object({
  engine: EngineName,
  available: z.boolean(),
  /** Why an engine is unavailable, in words for users (e.g. "High-quality engine not installed on this server"). */
  reason: z.string().nullable(),
  quality: z.string(),
  /**
   * What the engine measured in the project's benchmark (README): mean global SDR in dB on the held-out
   * songs (material no part of the engine was tuned on) and how many times faster than real time it ran on
   * a 2-core server. Null for a model an operator configured (nothing measured it).
   */
  measured: z.object({ heldOutSdrDb: z.number(), realTimeFactor: z.number() }).nullable().optional(),
});
export type EngineInfo = z.infer<typeof EngineInfo>;

/** Replies either carry a value or an expected failure with the HTTP status the gateway should answer. */
export const failure = z.object({ ok: z.literal(false), status: z.number().int(), message: z.string() });
export type Failure = z.infer<typeof failure>;
export const replyOf = <T extends z.ZodTypeAny>(value: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), failure]);
export type Reply<T> = { ok: true; value: T } | Failure;

const owned = { ownerId: z.string().min(1) };

export const IngestUploadRequest = z.object({
  ...owned,
  projectId: z.string().uuid(),
  objectKey: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
});
export type IngestUploadRequest = z.infer<typeof IngestUploadRequest>;
/**
 * The upload's answer once its content is known to be a song: the project (tempo and key still null) and
 * the durable job that extracts, analyses and separates it. The analysis follows as `project_analysed`.
 */
export const IngestUploadAnswer = z.object({ project: Project, job: SeparationJob.nullable() });
export type IngestUploadAnswer = z.infer<typeof IngestUploadAnswer>;
export const IngestUploadReply = replyOf(IngestUploadAnswer);

export const CreateProjectBody = z.object({
  name: z.string().trim().min(1, 'Required').max(200),
  originalFile: z.string().trim().min(1, 'Required').max(500),
  duration: z.number().nonnegative().max(24 * 3600),
  bpm: z.number().min(20).max(400).nullable().optional(),
  key: z.string().max(40).nullable().optional(),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;
export const CreateProjectRequest = CreateProjectBody.extend(owned);
export const ProjectReply = replyOf(Project);

/** PATCH /api/projects/:id: only the name can change. */
export const RenameProjectBody = z
  .object({
    name: z
      .string({ required_error: 'Required', invalid_type_error: 'Must be text' })
      .trim()
      .min(1, 'The name cannot be empty')
      .max(PROJECT_NAME_MAX, `The name can be at most ${PROJECT_NAME_MAX} characters`),
  })
  .strict();
export type RenameProjectBody = z.infer<typeof RenameProjectBody>;
export const RenameProjectRequest = RenameProjectBody.extend({ ...owned, projectId: z.string() });
export type RenameProjectRequest = z.infer<typeof RenameProjectRequest>;
export const DeleteProjectReply = replyOf(z.object({ id: z.string() }));

export const ListProjectsRequest = z.object(owned);
export const ListProjectsReply = replyOf(z.array(Project));

export const ProjectRequest = z.object({ ...owned, projectId: z.string() });
export type ProjectRequest = z.infer<typeof ProjectRequest>;

/** Where an owned binary lives, so the gateway can stream it with range support. */
export const ObjectLocation = z.object({ objectKey: z.string(), contentType: z.string(), fileName: z.string() });
export type ObjectLocation = z.infer<typeof ObjectLocation>;
export const ObjectLocationReply = replyOf(ObjectLocation);

export const AnalysisReply = replyOf(z.object({ spotifyFeatures: SpotifyFeatures, loudnessLufs: z.number() }));

/** GET /api/projects/:id/stems?engine=: which engine's stems (the active engine's when absent). */
export const StemsQuery = z.object({ engine: EngineName.optional() });
/** A project's stems: the active engine's, or with `engine` that engine's (a running job's first seconds). */
export const ListStemsRequest = ProjectRequest.extend(StemsQuery.shape);
export type ListStemsRequest = z.infer<typeof ListStemsRequest>;
export const ListStemsReply = replyOf(z.array(StemRecord));

export const UpdateStemBody = z
  .object({
    volume: z.number().min(STEM_VOLUME_MIN_DB).max(STEM_VOLUME_MAX_DB).optional(),
    muted: z.boolean().optional(),
    soloed: z.boolean().optional(),
    /** Play the original or the enhanced version (409 when the stem has no enhanced version). */
    version: StemVersion.optional(),
  })
  .strict();
export type UpdateStemBody = z.infer<typeof UpdateStemBody>;
/**
 * A mixer change to one stem, from `PUT /api/stems/:id` or `stem_update` on /ws. `origin` names the live
 * connection that made it (if any), so the `stem_updated` event can skip the socket that already shows it.
 */
export const UpdateStemRequest = z.object({ ...owned, stemId: z.string(), changes: UpdateStemBody, origin: z.string().max(100).nullable().default(null) });
export type UpdateStemRequest = z.input<typeof UpdateStemRequest>;
export const StemReply = replyOf(StemRecord);

export const StemRequest = z.object({ ...owned, stemId: z.string() });
/** Where a stem's audio is: the given version's, or the version the mixer plays when absent (404 for a missing enhanced version). */
export const StemAudioRequest = StemRequest.extend({ version: StemVersion.optional() });
export type StemAudioRequest = z.infer<typeof StemAudioRequest>;

/**
 * From the jobs service once an enhance job's outputs are stored: each stem's enhanced version is that
 * object, and the stem switches to play it (the original stays, the mixer can switch back). Answers the
 * updated stems; media publishes `stem_updated` for each.
 */
export const AttachEnhancedStemsRequest = z.object({
  ...owned,
  projectId: z.string(),
  jobId: z.string(),
  stems: z.array(z.object({ stemId: z.string(), objectKey: z.string() })).min(1),
});
export type AttachEnhancedStemsRequest = z.infer<typeof AttachEnhancedStemsRequest>;
export const AttachEnhancedStemsReply = replyOf(z.array(StemRecord));

export const RequestSeparationBody = z.object({ engine: EngineName.default('fast') });
export const RequestSeparationRequest = z.object({ ...owned, projectId: z.string(), engine: EngineName });
export type RequestSeparationRequest = z.infer<typeof RequestSeparationRequest>;
export const SeparationJobReply = replyOf(SeparationJob);

export const ListEnginesReply = replyOf(z.array(EngineInfo));

/** The durable job message on SEPARATION_JOB_SUBJECT. */
export const SeparationJobMessage = z.object({
  jobId: z.string(),
  ownerId: z.string(),
  projectId: z.string(),
  engine: EngineName,
});
export type SeparationJobMessage = z.infer<typeof SeparationJobMessage>;

export const MediaEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stems_progress'), ownerId: z.string(), projectId: z.string(), engine: EngineName, progress: z.number() }),
  /** A waiting separation moved up its owner's line (1 = next). */
  z.object({ type: z.literal('stems_queued'), ownerId: z.string(), projectId: z.string(), engine: EngineName, position: z.number().int().positive() }),
  /**
   * Progressive stems: the first `seconds` of every stem are stored and playable at the stems' urls while
   * the rest of the song is still separating; `stems_ready` follows with the whole stems at the same urls.
   */
  z.object({ type: z.literal('stems_partial'), ownerId: z.string(), projectId: z.string(), engine: EngineName, seconds: z.number(), stems: z.array(StemRecord) }),
  z.object({ type: z.literal('stems_ready'), ownerId: z.string(), projectId: z.string(), engine: EngineName, stems: z.array(StemRecord) }),
  z.object({ type: z.literal('stems_failed'), ownerId: z.string(), projectId: z.string(), engine: EngineName, message: z.string() }),
  /**
   * A project and everything stored for it are gone. The owner's other tabs close it; a service that keeps
   * its own records of a project (exports, mastering) subscribes to PROJECT_DELETED_EVENTS and removes them.
   */
  z.object({ type: z.literal('project_deleted'), ownerId: z.string(), projectId: z.string() }),
  /** The ingest job has analysed the whole recording: its tempo, key and decoded length are stored. */
  z.object({ type: z.literal('project_analysed'), ownerId: z.string(), projectId: z.string(), bpm: z.number(), key: z.string(), duration: z.number() }),
  /**
   * A mixer change was stored: `stem` is the stored state, `changes` the fields this change set (a tab
   * applies only those, so a change of its own still on its way is not undone). `origin` is the live
   * connection that made it, which already shows it.
   */
  z.object({ type: z.literal('stem_updated'), ownerId: z.string(), origin: z.string().nullable(), stem: StemRecord, changes: UpdateStemBody }),
]);
export type MediaEvent = z.infer<typeof MediaEvent>;
