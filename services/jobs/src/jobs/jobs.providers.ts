import type { Provider } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { MediaProjectsAdapter } from '../media/media-projects.adapter';
import { JobEventsPublisher } from './job-events.publisher';
import { JobRepository } from './job.repository';
import { JobsQueue } from './jobs-queue';
import { JOB_EVENTS, JOB_QUEUE, JOB_STORAGE, JOB_STORE, MEDIA_PROJECTS } from './jobs.ports';

/**
 * The job use-cases' tokens bound to the real repository and adapters (each of which the module provides);
 * the mastering and enhance providers are bound by jobs.module from the configuration (configured-providers.ts).
 */
export const JOB_PORT_BINDINGS: Provider[] = [
  { provide: JOB_STORE, useExisting: JobRepository },
  { provide: MEDIA_PROJECTS, useExisting: MediaProjectsAdapter },
  { provide: JOB_STORAGE, useExisting: ObjectStorageAdapter },
  { provide: JOB_EVENTS, useExisting: JobEventsPublisher },
  { provide: JOB_QUEUE, useExisting: JobsQueue },
];
