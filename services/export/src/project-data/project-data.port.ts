import type { ProjectExportFormat } from '@stemdeck/proto';

/** One file of a project-data export: its name inside the download (may hold a folder, `touchdesigner/beats.csv`) and where it was written. */
export interface ProjectDataFile {
  name: string;
  path: string;
}

/**
 * Project data for other tools (Spotify-style analysis, the OSC/MIDI map, TouchDesigner and Resolume kits).
 * `check` refuses (ExportRefused 404/409) before anything is queued; `write` builds the files in `dir`.
 */
export interface ProjectDataWriter {
  check(ownerId: string, projectId: string, formats: readonly ProjectExportFormat[]): Promise<void>;
  write(ownerId: string, projectId: string, formats: readonly ProjectExportFormat[], dir: string, onProgress?: (fraction: number) => void): Promise<ProjectDataFile[]>;
}
export const PROJECT_DATA_WRITER = Symbol('ProjectDataWriter');
