import { z } from 'zod';
import { replyOf } from './media';
import { StemType } from './media';
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
} from './vocabulary';

/**
 * The jobs service's contracts: mastering (and later enhancement) jobs on a project's stems. Request/reply
 * subjects carry ids and metadata only; the outputs live in object storage and the gateway serves them.
 */
export const JOBS_SUBJECTS = {
  createMastering: 'stemdeck.jobs.mastering.create',
  createEnhance: 'stemdeck.jobs.enhance.create',
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

/** Integrated loudness (LUFS), loudness range (LU) and true peak (dBTP), as ffmpeg's ebur128 reads them. */
export const LoudnessFigures = z.object({ integratedLufs: z.number(), lra: z.number(), truePeakDbtp: z.number() });
export type LoudnessFigures = z.infer<typeof LoudnessFigures>;

/**
 * A job's output as the service sends it on NATS; where it can be fetched is the gateway's business (`Job`).
 * An enhance job's outputs are stems (`vocals.flac`, …): each names its stem and carries its own figures.
 */
export const JobOutputRecord = z.object({
  name: z.string(),
  stemType: StemType.optional(),
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

/** POST /api/jobs/landr-master. */
export const CreateMasteringJobBody = z.object({
  projectId: z.string({ required_error: 'Required' }).min(1, 'Required').max(200),
  parameters: MasteringParameters,
});
export type CreateMasteringJobBody = z.infer<typeof CreateMasteringJobBody>;
export const CreateMasteringJobRequest = CreateMasteringJobBody.extend(owned);
export type CreateMasteringJobRequest = z.infer<typeof CreateMasteringJobRequest>;

/** POST /api/jobs/dolby-enhance. */
export const CreateEnhanceJobBody = z.object({
  projectId: z.string({ required_error: 'Required' }).min(1, 'Required').max(200),
  parameters: EnhanceParameters,
});
export type CreateEnhanceJobBody = z.infer<typeof CreateEnhanceJobBody>;
export const CreateEnhanceJobRequest = CreateEnhanceJobBody.extend(owned);
export type CreateEnhanceJobRequest = z.infer<typeof CreateEnhanceJobRequest>;

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
