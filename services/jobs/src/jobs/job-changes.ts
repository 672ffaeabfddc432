import type { JobDocument } from './job.schema';
import type { JobResult } from './jobs.ports';

/** The changes that complete a job, and that fail one (the repository and its in-memory fake make the same ones). */
export const completed = ({ outputs, before, after }: JobResult): Partial<JobDocument> => ({
  outputs,
  before: before ?? null,
  after: after ?? null,
  status: 'completed',
  progress: 100,
  error: null,
  finishing: false,
  waiting: false,
});
/** A failed job (a waiting one too: cancelled before it started) no longer waits for a slot. */
export const failed = (error: string): Partial<JobDocument> => ({ status: 'failed', error, outputs: [], finishing: false, waiting: false });
