import { createApi } from '@reduxjs/toolkit/query/react';
import type { User } from './authTypes';
import { studioBaseQuery } from './baseQuery';

/**
 * The REST API under /api: results never go stale on their own, no retries, no
 * refetch on focus or reconnect, unused entries dropped after 5 minutes. Feature slices inject endpoints.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: studioBaseQuery,
  keepUnusedDataFor: 300,
  // The project library is refetched whenever a project is added, renamed, deleted or finishes separating;
  // a project's jobs (AI Mastering) when one is started or finishes.
  tagTypes: ['Projects', 'Jobs'],
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: (build) => ({
    getCurrentUser: build.query<User | null, void>({
      query: () => ({ url: 'auth/user', nullOn401: true }),
    }),
  }),
});

export const { useGetCurrentUserQuery } = api;
