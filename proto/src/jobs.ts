import { z } from 'zod';
import { eventSubjectOwner, replyOf, StemType } from './media';
import { projectPrefix } from './storage-keys';
import {
  ENHANCEMENTS,
  JOB_PROVIDERS,
  JOB_STATUSES,
  JOB_TYPES,
  MASTER_TYPES,
  MASTERING_INTENSITY_DEFAULT,
  MASTERING_INTENSITY_MAX,
  MASTERING_INTENSITY_MIN,
  MASTERING_STYLES,
  VIDEO_DEFAULT_PROMPT,
  VIDEO_DURATIONS,
  VIDEO_PROMPT_MAX,
  VIDEO_RESOLUTIONS,
} from './vocabulary';

export { VIDEO_CHORUS_SECONDS, VIDEO_DEFAULT_PROMPT, VIDEO_DURATIONS, VIDEO_PROMPT_MAX, VIDEO_RESOLUTIONS } from './vocabulary';

/**
 * The jobs service's contracts: mastering (and later enhancement) jobs on a project's stems. Request/reply
 * subjects carry ids and metadata only; the outputs live in object storage and the gateway serves them.
 */
export const JOBS_SUBJECTS = {
  createMastering: 'stemdeck.jobs.mastering.create',
  createEnhance: 'stemdeck.jobs.enhance.create',
  createVideo: 'stemdeck.jobs.video.create',
  getJob: 'stemdeck.jobs.get',
  listProjectJobs: 'stemdeck.jobs.project.list',
  cancelJob: 'stemdeck.jobs.cancel',
  jobOutput: 'stemdeck.jobs.output',
} as const;

/** JetStream work queue for jobs (durable; acknowledged after the result is stored). */
export const JOBS_STREAM = 'STEMDECK_JOBS';
export const JOBS_WORK_SUBJECT = 'stemdeck.jobs.work';
export const JOBS_CONSUMER = 'jobs-worker';

/** Job events on the owner's subject; the gateway relays them to the owner's sockets. */
export const JOB_EVENTS_WILDCARD = 'stemdeck.jobs.events.>';
export const jobEventSubject = (ownerId: string): string => `stemdeck.jobs.events.${Buffer.from(ownerId).toString('hex')}`;
/** The owner a job event subject names, or null for a subject of another shape. */
export const jobEventOwner = (subject: string): string | null => eventSubjectOwner(subject, 'jobs', 0);

export const MasterType = z.enum(MASTER_TYPES);
export type MasterType = z.infer<typeof MasterType>;
export const MasteringStyle = z.enum(MASTERING_STYLES);
export type MasteringStyle = z.infer<typeof MasteringStyle>;
export const JobType = z.enum(JOB_TYPES);
export type JobType = z.infer<typeof JobType>;
export const JobProvider = z.enum(JOB_PROVIDERS);
export type JobProvider = z.infer<typeof JobProvider>;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;

export const MasteringParameters = z
  .object({
    masterType: MasterType,
    style: MasteringStyle,
    intensity: z
      .number({ invalid_type_error: 'Must be a number' })
      .int('Must be 1, 2 or 3')
      .min(MASTERING_INTENSITY_MIN, 'Must be 1, 2 or 3')
      .max(MASTERING_INTENSITY_MAX, 'Must be 1, 2 or 3')
      .default(MASTERING_INTENSITY_DEFAULT),
  })
  .strict();
export type MasteringParameters = z.infer<typeof MasteringParameters>;

const toggle = z.boolean({ invalid_type_error: 'Must be true or false' }).default(false);

/** Enhance: which cleanups run (at least one) on which of the project's stems (at least one). */
export const EnhanceParameters = z
  .object({
    enhancements: z
      .object({ noiseReduction: toggle, loudnessNormalization: toggle, speechEnhancement: toggle })
      .strict()
      .refine((value) => ENHANCEMENTS.some((name) => value[name]), 'Choose at least one enhancement'),
    targetStems: z
      .object({ vocals: toggle, drums: toggle, bass: toggle, other: toggle })
      .strict()
      .refine((value) => StemType.options.some((type) => value[type]), 'Choose at least one stem'),
  })
  .strict();
export type EnhanceParameters = z.infer<typeof EnhanceParameters>;

export const VideoDuration = z.enum(VIDEO_DURATIONS);
export type VideoDuration = z.infer<typeof VideoDuration>;
export const VideoResolution = z.enum(VIDEO_RESOLUTIONS);
export type VideoResolution = z.infer<typeof VideoResolution>;

const seconds = (name: string) =>
  z.number({ invalid_type_error: 'Must be a number of seconds' }).finite().min(0, `${name} must be 0 or more`);

/**
 * A music video: the style prompt (trimmed, 1–500 characters; the sample prompt when absent), which part of
 * the song (`full`, `chorus`: its 30 s loop, `custom`: customStart to customEnd seconds, start before end;
 * the job's creation also checks the end is within the song) and the resolution.
 */
export const VideoParameters = z
  .object({
    prompt: z
      .string({ invalid_type_error: 'Must be text' })
      .trim()
      .min(1, 'Must not be empty')
      .max(VIDEO_PROMPT_MAX, `At most ${VIDEO_PROMPT_MAX} characters`)
      .default(VIDEO_DEFAULT_PROMPT),
    duration: VideoDuration,
    customStart: seconds('The start').optional(),
    customEnd: seconds('The end').optional(),
    resolution: VideoResolution,
  })
  .strict()
  .superRefine((value, context) => {
    const issue = (path: string, message: string) => context.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (value.duration !== 'custom') {
      if (value.customStart !== undefined) issue('customStart', 'Only for a custom duration');
      if (value.customEnd !== undefined) issue('customEnd', 'Only for a custom duration');
      return;
    }
    if (value.customStart === undefined) issue('customStart', 'Required for a custom duration');
    if (value.customEnd === undefined) issue('customEnd', 'Required for a custom duration');
    if (value.customStart !== undefined && value.customEnd !== undefined && value.customEnd <= value.customStart) {
      issue('customEnd', 'Must be after customStart');
    }
  });
export type VideoParameters = z.infer<typeof VideoParameters>;

/** What the local renderer chose from the prompt's words (the same prompt, the same look). */
export const VideoLookRecord = z.object({ palette: z.string(), mode: z.string(), motion: z.string() });

/** A finished video's facts: its size, the part of the song it holds (song seconds) and how it was made. */
export const VideoFacts = z.object({
  resolution: VideoResolution,
  width: z.number().int(),
  height: z.number().int(),
  fps: z.number(),
  startSeconds: z.number(),
  endSeconds: z.number(),
  /** The local renderer's look; absent for a cloud provider's video. */
  look: VideoLookRecord.optional(),
  /** A cloud provider's generated clip length in seconds (looped over the span). */
  clipSeconds: z.number().optional(),
});
export type VideoFacts = z.infer<typeof VideoFacts>;

/** A video job's outputs live in its own folder, removed as one prefix when it fails or is cancelled. */
export const videosPrefix = (ownerId: string, projectId: string): string => `${projectPrefix(ownerId, projectId)}videos/`;
export const videoJobPrefix = (ownerId: string, projectId: string, jobId: string): string => `${videosPrefix(ownerId, projectId)}${jobId}/`;
/** The one output of a video job. */
export const VIDEO_OUTPUT = 'video.mp4';

/** Integrated loudness (LUFS), loudness range (LU) and true peak (dBTP), as ffmpeg's ebur128 reads them. */
export const LoudnessFigures = z.object({ integratedLufs: z.number(), lra: z.number(), truePeakDbtp: z.number() });
export type LoudnessFigures = z.infer<typeof LoudnessFigures>;

/**
 * A job's output as the service sends it on NATS; where it can be fetched is the gateway's business (`Job`).
 * An enhance job's outputs are stems (`vocals.flac`, …): each names its stem and carries its own figures; a
 * video job's one output (`video.mp4`) carries the video's facts.
 */
export const JobOutputRecord = z.object({
  name: z.string(),
  stemType: StemType.optional(),
  /** A video job's `video.mp4`: its size, span and how it was made. */
  video: VideoFacts.optional(),
  before: LoudnessFigures.optional(),
  after: LoudnessFigures.optional(),
});

const jobFields = {
  id: z.string(),
  projectId: z.string(),
  type: JobType,
  provider: JobProvider,
  status: JobStatus,
  /** 0–100. */
  progress: z.number().min(0).max(100),
  error: z.string().optional(),
  /**
   * A processing job still waiting for one of its owner's job slots (each user runs a few mastering, enhance
   * and video jobs at once; the rest wait, oldest first): its place in that user's line, 1 = next. Absent
   * once it is handed to a worker.
   */
  queuePosition: z.number().int().positive().optional(),
  createdAt: z.string(),
};

/** A job as the jobs service stores and sends it. */
export const JobRecord = z.object({
  ...jobFields,
  /** Mastering: before/after describe the master (the sum for per-stem and stem-groups); enhance: absent, each output has its own. */
  result: z.object({ outputs: z.array(JobOutputRecord), before: LoudnessFigures.optional(), after: LoudnessFigures.optional() }).optional(),
});
export type JobRecord = z.infer<typeof JobRecord>;

/** A job as HTTP and /ws clients see it: each output with the url the gateway serves it at. */
export const Job = z.object({
  ...jobFields,
  result: z
    .object({ outputs: z.array(JobOutputRecord.extend({ url: z.string() })), before: LoudnessFigures.optional(), after: LoudnessFigures.optional() })
    .optional(),
});
export type Job = z.infer<typeof Job>;

const owned = { ownerId: z.string().min(1) };
/** The project a new job is for (each create body names one). */
const jobProjectId = z.string({ required_error: 'Required' }).min(1, 'Required').max(200);

/** POST /api/jobs/landr-master. */
export const CreateMasteringJobBody = z.object({
  projectId: jobProjectId,
  parameters: MasteringParameters,
});
export type CreateMasteringJobBody = z.infer<typeof CreateMasteringJobBody>;
export const CreateMasteringJobRequest = CreateMasteringJobBody.extend(owned);
export type CreateMasteringJobRequest = z.infer<typeof CreateMasteringJobRequest>;

/** POST /api/jobs/dolby-enhance. */
export const CreateEnhanceJobBody = z.object({
  projectId: jobProjectId,
  parameters: EnhanceParameters,
});
export type CreateEnhanceJobBody = z.infer<typeof CreateEnhanceJobBody>;
export const CreateEnhanceJobRequest = CreateEnhanceJobBody.extend(owned);
export type CreateEnhanceJobRequest = z.infer<typeof CreateEnhanceJobRequest>;

/** POST /api/jobs/runway-video (the configured video provider renders it: the local renderer unless Runway is). */
export const CreateVideoJobBody = z.object({
  projectId: jobProjectId,
  parameters: VideoParameters,
});
export type CreateVideoJobBody = z.input<typeof CreateVideoJobBody>;
export const CreateVideoJobRequest = CreateVideoJobBody.extend(owned);
export type CreateVideoJobRequest = z.infer<typeof CreateVideoJobRequest>;

export const JobRequest = z.object({ ...owned, jobId: z.string() });
export type JobRequest = z.infer<typeof JobRequest>;
export const ListProjectJobsRequest = z.object({ ...owned, projectId: z.string() });
export const JobOutputRequest = JobRequest.extend({ name: z.string() });
export type JobOutputRequest = z.infer<typeof JobOutputRequest>;

export const JobReply = replyOf(JobRecord);
export const JobListReply = replyOf(z.array(JobRecord));

/** The durable message on JOBS_WORK_SUBJECT. */
export const JobWorkMessage = z.object({ jobId: z.string(), ownerId: z.string() });
export type JobWorkMessage = z.infer<typeof JobWorkMessage>;

export const JOB_EVENT_TYPES = ['job_progress', 'job_completed', 'job_failed'] as const;
export const JobEvent = z.object({ type: z.enum(JOB_EVENT_TYPES), ownerId: z.string(), job: JobRecord });
export type JobEvent = z.infer<typeof JobEvent>;
