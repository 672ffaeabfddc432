/**
 * The media API's shapes, typed by the server's own contracts (proto/src/media.ts; type-only imports, so
 * no schema code reaches the bundle). The two name lists are repeated here as values for the UI.
 */
export type { EngineInfo, EngineName, MediaEvent, Project, SeparationJob, Stem, StemType } from '@stemdeck/proto';
import type { EngineName, Project, SeparationJob, StemType } from '@stemdeck/proto';

export const STEM_TYPES: readonly StemType[] = ['vocals', 'drums', 'bass', 'other'];
export const ENGINE_NAMES: readonly EngineName[] = ['fast', 'hybrid', 'quality'];

/** POST /api/upload's answer (201). */
export interface UploadAnswer {
  project: Project;
  analysis: { bpm: number; key: string };
  job: SeparationJob | null;
}
