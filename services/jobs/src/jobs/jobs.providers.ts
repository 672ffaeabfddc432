import type { Provider } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { DatabaseSlotBoard, ObjectStorageAdapter } from '@stemdeck/platform';
import type { Connection } from 'mongoose';
import { MediaProjectsAdapter } from '../media/media-projects.adapter';
import { JobEventsPublisher } from './job-events.publisher';
import { JOB_SLOTS, JobSlots } from './job-slots';
import { JobRepository } from './job.repository';
import { JobsQueue } from './jobs-queue';
import { JOB_EVENTS, JOB_QUEUE, JOB_STORAGE, JOB_STORE, MEDIA_PROJECTS, SLOT_BOARD } from './jobs.ports';

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
  { provide: JOB_SLOTS, useExisting: JobSlots },
  { provide: SLOT_BOARD, inject: [getConnectionToken()], useFactory: (connection: Connection) => new DatabaseSlotBoard(connection) },
];
