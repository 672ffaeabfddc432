/**
 * The media API's shapes, typed by the server's own contracts (proto/src/media.ts; type-only imports, so
 * no schema code reaches the bundle). The name lists are proto's zod-free vocabulary.
 */
export type { EngineInfo, EngineName, Project, SeparationJob, Stem, StemType } from '@stemdeck/proto';
export { ENGINE_NAMES, STEM_TYPES } from '@stemdeck/proto/vocabulary';
/** POST /api/upload's answer (201): the project and its first job; the analysis follows as `project_analysed`. */
export type { IngestUploadAnswer as UploadAnswer } from '@stemdeck/proto';
