import { api } from '../../api/api';
import type { EngineInfo, EngineName, Project, SeparationJob, Stem } from '../../api/mediaTypes';
import type { StorageUsage } from '@stemdeck/proto/vocabulary';
import { normalizeStems, type MixerStem, type StemAnswer } from './stems';
import type { StemChanges } from './projectSlice';

/** The projects and stems endpoints on the shared API slice. */
export const projectsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProject: build.query<Project, string>({ query: (projectId) => `projects/${encodeURIComponent(projectId)}` }),
    listProjects: build.query<Project[], void>({ query: () => 'projects', providesTags: ['Projects'] }),
    renameProject: build.mutation<Project, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `projects/${encodeURIComponent(id)}`, method: 'PATCH', body: { name } }),
      invalidatesTags: ['Projects'],
    }),
    deleteProject: build.mutation<void, string>({
      query: (id) => ({ url: `projects/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Projects'],
    }),
    listEngines: build.query<EngineInfo[], void>({ query: () => 'engines' }),
    /** What the user's projects occupy of their storage; read again whenever the library is. */
    storageUsage: build.query<StorageUsage, void>({
      query: () => 'me/usage',
      transformResponse: (answer: { storage: StorageUsage }) => answer.storage,
      providesTags: ['Projects'],
    }),
    /** The active engine's stems, or with `engine` that engine's (a running job's first seconds). */
    projectStems: build.query<MixerStem[], { projectId: string; engine?: EngineName }>({
      query: ({ projectId, engine }) => ({ url: `projects/${encodeURIComponent(projectId)}/stems`, params: engine ? { engine } : undefined }),
      transformResponse: (answer: StemAnswer[]) => normalizeStems(answer),
    }),
    /**
     * Stores a mixer change (or which version plays); the gateway tells the owner's other tabs (`stem_updated`),
     * not the one named in the header. Answers the stored stem with the url of the version it plays.
     */
    updateStem: build.mutation<Stem, { id: string; changes: StemChanges | { version: Stem['version'] }; connectionId?: string | null }>({
      query: ({ id, changes, connectionId }) => ({
        url: `stems/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: changes,
        headers: connectionId ? { 'x-stemdeck-live-connection': connectionId } : undefined,
      }),
    }),
    separate: build.mutation<SeparationJob, { projectId: string; engine: EngineName }>({
      query: ({ projectId, engine }) => ({ url: `projects/${encodeURIComponent(projectId)}/separate`, method: 'POST', body: { engine } }),
    }),
  }),
});

export const { useListEnginesQuery, useListProjectsQuery, useRenameProjectMutation, useDeleteProjectMutation, useStorageUsageQuery } = projectsApi;
