import type { AudioExportBody, ExportAnswer, ExportOptions, ExportRecord, ProjectExportBody, SpotifyFeatures } from '@stemdeck/proto';
import { api } from '../../api/api';

/**
 * The export endpoints (Export & Share) on the shared API slice. Types are proto's own contracts, imported as
 * types only, so no schema code reaches the bundle.
 */
export type { AudioExportFormat, ExportAnswer, ExportMastering, ExportOptions, ExportRecord, ExportType, ProjectExportFormat, SpotifyFeatures } from '@stemdeck/proto';

/** What GET /api/projects/:id/analysis answers: the Spotify-style features and the integrated loudness. */
export interface ProjectAnalysis {
  spotifyFeatures: SpotifyFeatures;
  loudnessLufs: number;
}

export const exportApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Answers once the file is stored (several seconds for a long song): its name and owner-only download url. */
    exportAudio: build.mutation<ExportAnswer, AudioExportBody>({
      query: (body) => ({ url: 'export/audio', method: 'POST', body }),
    }),
    exportProject: build.mutation<ExportAnswer, ProjectExportBody>({
      query: (body) => ({ url: 'export/project', method: 'POST', body }),
    }),
    /** The project's exports still being built or waiting for the user's others (each waiting one with its place), oldest first. */
    runningExports: build.query<ExportRecord[], string>({
      query: (projectId) => `projects/${encodeURIComponent(projectId)}/exports`,
    }),
    /** Which variants (raw, mastered, enhanced, both) exist now; refreshed when a job starts or finishes. */
    exportOptions: build.query<ExportOptions, string>({
      query: (projectId) => `projects/${encodeURIComponent(projectId)}/export-options`,
      providesTags: ['Jobs'],
    }),
    /**
     * The project's stored analysis; 404 while it has none. `analysed` is part of the key so the analysis is
     * read again once the upload's job reports it (the project's tempo arrives with it).
     */
    projectAnalysis: build.query<ProjectAnalysis, { projectId: string; analysed: boolean }>({
      query: ({ projectId }) => `projects/${encodeURIComponent(projectId)}/analysis`,
    }),
  }),
});

export const { useExportAudioMutation, useExportProjectMutation, useExportOptionsQuery, useProjectAnalysisQuery, useRunningExportsQuery } = exportApi;
