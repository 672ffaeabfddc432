import type { Job, JobRecord } from '@stemdeck/proto';

/** Where the gateway serves a job's output (owner-checked, with range support). */
export const jobOutputPath = (jobId: string, name: string): string => `/api/jobs/${encodeURIComponent(jobId)}/outputs/${encodeURIComponent(name)}`;

/** A job as the jobs service sends it, with the urls browsers fetch its outputs at. */
export const withOutputUrls = (job: JobRecord): Job => {
  if (!job.result) return { ...job, result: undefined };
  return { ...job, result: { ...job.result, outputs: job.result.outputs.map((output) => ({ ...output, url: jobOutputPath(job.id, output.name) })) } };
};
