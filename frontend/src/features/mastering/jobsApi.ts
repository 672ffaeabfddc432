import type { CreateEnhanceJobBody, CreateMasteringJobBody, CreateVideoJobBody, Job } from '@stemdeck/proto';
import { api } from '../../api/api';

/**
 * The jobs endpoints (AI Mastering: masters and enhancements) on the shared API slice. Types are proto's own
 * contracts, imported as types only, so no schema code reaches the bundle.
 */
export type { EnhanceParameters, Job, LoudnessFigures, MasteringParameters, VideoFacts, VideoParameters } from '@stemdeck/proto';

export const jobsApi = api.injectEndpoints({
  endpoints: (build) => ({
    startMastering: build.mutation<Job, CreateMasteringJobBody>({
      query: (body) => ({ url: 'jobs/landr-master', method: 'POST', body }),
      invalidatesTags: ['Jobs'],
    }),
    startEnhance: build.mutation<Job, CreateEnhanceJobBody>({
      query: (body) => ({ url: 'jobs/dolby-enhance', method: 'POST', body }),
      invalidatesTags: ['Jobs'],
    }),
    /** A music video of the project's song (the configured provider renders it; the job says which). */
    startVideo: build.mutation<Job, CreateVideoJobBody>({
      query: (body) => ({ url: 'jobs/runway-video', method: 'POST', body }),
      invalidatesTags: ['Jobs'],
    }),
    getJob: build.query<Job, string>({ query: (jobId) => `jobs/${encodeURIComponent(jobId)}` }),
    /** Newest first, every type. */
    projectJobs: build.query<Job[], string>({
      query: (projectId) => `projects/${encodeURIComponent(projectId)}/jobs`,
      providesTags: ['Jobs'],
    }),
    /** Answers the job as it now stands: failed, its error "Cancelled". */
    cancelJob: build.mutation<Job, string>({
      query: (jobId) => ({ url: `jobs/${encodeURIComponent(jobId)}`, method: 'DELETE' }),
      invalidatesTags: ['Jobs'],
    }),
  }),
});

export const { useStartMasteringMutation, useStartEnhanceMutation, useStartVideoMutation, useGetJobQuery, useProjectJobsQuery, useCancelJobMutation } = jobsApi;
