import type { Provider } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { LocalEnhanceProvider } from '../enhance/local-enhance.provider';
import { LocalMasteringProvider } from '../mastering/local-mastering.provider';
import { MediaProjectsAdapter } from '../media/media-projects.adapter';
import { JobEventsPublisher } from './job-events.publisher';
import { JobRepository } from './job.repository';
import { JobsQueue } from './jobs-queue';
import { ENHANCE_PROVIDER, JOB_EVENTS, JOB_QUEUE, JOB_STORAGE, JOB_STORE, MASTERING_PROVIDER, MEDIA_PROJECTS } from './jobs.ports';

/** The job use-cases' tokens bound to the real repository and adapters (each of which the module provides). */
export const JOB_PORT_BINDINGS: Provider[] = [
  { provide: JOB_STORE, useExisting: JobRepository },
  { provide: MEDIA_PROJECTS, useExisting: MediaProjectsAdapter },
  { provide: JOB_STORAGE, useExisting: ObjectStorageAdapter },
  { provide: MASTERING_PROVIDER, useExisting: LocalMasteringProvider },
  { provide: ENHANCE_PROVIDER, useExisting: LocalEnhanceProvider },
  { provide: JOB_EVENTS, useExisting: JobEventsPublisher },
  { provide: JOB_QUEUE, useExisting: JobsQueue },
];
