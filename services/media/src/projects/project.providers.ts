import type { Provider } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { SeparationJobRepository } from '../separation/separation-job.repository';
import { ProjectRepository } from './project.repository';
import { PROJECT_JOBS, PROJECT_STORAGE, PROJECT_STORE, type ProjectJobs, type ProjectStorage, type ProjectStore } from './project.ports';

/**
 * A token bound to a class the module provides; `Port` makes the compiler check that the class still
 * answers the port (a plain `useExisting` would not).
 */
export const bindPort = <Port>(provide: symbol, useExisting: abstract new (...args: never[]) => Port): Provider => ({ provide, useExisting });

/** The project use-cases' tokens bound to the real repositories and adapters (each of which the module provides). */
export const PROJECT_PORT_BINDINGS: Provider[] = [
  bindPort<ProjectStore>(PROJECT_STORE, ProjectRepository),
  bindPort<ProjectJobs>(PROJECT_JOBS, SeparationJobRepository),
  bindPort<ProjectStorage>(PROJECT_STORAGE, ObjectStorageAdapter),
];
