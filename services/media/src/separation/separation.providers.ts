import type { Provider } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { DatabaseSlotBoard, ObjectStorageAdapter } from '@stemdeck/platform';
import type { Connection } from 'mongoose';
import { MediaToolsAdapter } from '../media-tools/media-tools.adapter';
import { ProjectRepository } from '../projects/project.repository';
import { StemRepository } from '../stems/stem.repository';
import { EngineRegistry } from './engine-registry';
import { MediaEventsPublisher } from './media-events.publisher';
import { SeparationJobRepository } from './separation-job.repository';
import { SeparationQueue } from './separation-queue';
import { SEPARATION_SLOTS, SeparationSlots } from './separation-slots';
import {
  SEPARATION_ENGINES,
  SEPARATION_EVENTS,
  SEPARATION_JOB_QUEUE,
  SEPARATION_JOBS,
  SEPARATION_MEDIA_TOOLS,
  SEPARATION_PROJECTS,
  SEPARATION_STEMS,
  SLOT_BOARD,
  STEM_STORAGE,
} from './separation.ports';

/** The separation use-cases' tokens bound to the real repositories and adapters (each of which the module provides). */
export const SEPARATION_PORT_BINDINGS: Provider[] = [
  { provide: SEPARATION_PROJECTS, useExisting: ProjectRepository },
  { provide: SEPARATION_STEMS, useExisting: StemRepository },
  { provide: SEPARATION_JOBS, useExisting: SeparationJobRepository },
  { provide: SEPARATION_ENGINES, useExisting: EngineRegistry },
  { provide: STEM_STORAGE, useExisting: ObjectStorageAdapter },
  { provide: SEPARATION_MEDIA_TOOLS, useExisting: MediaToolsAdapter },
  { provide: SEPARATION_EVENTS, useExisting: MediaEventsPublisher },
  { provide: SEPARATION_JOB_QUEUE, useExisting: SeparationQueue },
  { provide: SEPARATION_SLOTS, useExisting: SeparationSlots },
  { provide: SLOT_BOARD, inject: [getConnectionToken()], useFactory: (connection: Connection) => new DatabaseSlotBoard(connection) },
];

