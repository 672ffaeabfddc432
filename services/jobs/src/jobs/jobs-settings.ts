import type { JobsConfig } from '../config';

/** The settings the job use-cases read. */
export type JobConfig = Pick<JobsConfig, 'JOBS_MAX_DELIVER'>;
export const JOBS_CONFIG = Symbol('JobsConfig');
