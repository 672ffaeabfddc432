import type { JobType } from '@stemdeck/proto';
import type { JobDocument, JobOutputDocument } from './job.schema';
import type { JobResult } from './jobs.ports';

/** What a runner is given while it works on one delivery of a job (RunJobUseCase makes it). */
export interface RunningJob {
  /** Aborted once the job was cancelled or its project deleted (seen when progress is stored), and when the delivery ends. */
  readonly signal: AbortSignal;
  /** 0–1 over the whole job: stored and announced at most every PROGRESS_STORE_MS, below 100 until the job completes. */
  progress(fraction: number): void;
  /** Uploads a local file into the job's own folder as `name`, and answers it as an output. */
  store(name: string, path: string, contentType: string): Promise<JobOutputDocument>;
  /**
   * The job is about to hand its stored outputs to another service: from now on a cancel is refused (it would
   * remove objects the other service then points at). Rejects with JobStopped when the job is no longer running.
   */
  beginFinishing(): Promise<void>;
}

/** One kind of job's work; RunJobUseCase does what every kind shares (attempts, progress, completion, failure, cleanup). */
export interface JobRunner {
  /** How its failure message starts ("Mastering failed"). */
  readonly failure: string;
  /** Does the work, storing every output through `running.store`, and answers what completes the job. */
  run(job: JobDocument, running: RunningJob): Promise<JobResult>;
}

/** Fails the job at once (no retry): nothing another attempt could change. Its message is the user's. */
export class NotRunnable extends Error {}

/**
 * A failure whose message is written for users (a cloud provider's refusal or its reason): the job's error
 * shows it. Any other error's message (ffmpeg's stderr, a command line, an internal URL) stays in the log and
 * the job says only that the audio could not be processed.
 */
export class ProviderFailure extends Error {}

/** The job was cancelled or its project deleted while it ran: stop and leave nothing. */
export class JobStopped extends Error {
  constructor() {
    super('the job was cancelled or its project deleted');
  }
}

/** The runner of each job type (jobs.module binds the mastering and enhance runners). */
export type JobRunners = Record<JobType, JobRunner>;
export const JOB_RUNNERS = Symbol('JobRunners');
