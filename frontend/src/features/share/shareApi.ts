import type { CreatedShareLink, CreateShareLinkBody, SharedProject, ShareLinkRecord } from '@stemdeck/proto';
import { api } from '../../api/api';

/** Share links (the owner's side) and the public view a link opens, on the shared API slice. */
export type { CreatedShareLink, SharedProject, ShareLinkRecord, ShareLinkStatus } from '@stemdeck/proto';

/** POST /api/projects/:id/share-links answers the new link with its token and the page's address. */
export type NewShareLink = CreatedShareLink & { url: string };

export const shareApi = api.enhanceEndpoints({ addTagTypes: ['ShareLinks'] }).injectEndpoints({
  endpoints: (build) => ({
    createShareLink: build.mutation<NewShareLink, { projectId: string } & CreateShareLinkBody>({
      query: ({ projectId, ...body }) => ({ url: `projects/${encodeURIComponent(projectId)}/share-links`, method: 'POST', body }),
      invalidatesTags: ['ShareLinks'],
    }),
    /** The project's links, without their tokens. */
    listShareLinks: build.query<ShareLinkRecord[], string>({
      query: (projectId) => `projects/${encodeURIComponent(projectId)}/share-links`,
      providesTags: ['ShareLinks'],
    }),
    revokeShareLink: build.mutation<ShareLinkRecord, string>({
      query: (linkId) => ({ url: `share-links/${encodeURIComponent(linkId)}`, method: 'DELETE' }),
      invalidatesTags: ['ShareLinks'],
    }),
    /** Public: no sign-in. 404 (never issued) and 410 (revoked or expired) say the link is gone. */
    sharedProject: build.query<SharedProject, string>({
      query: (token) => `share/${encodeURIComponent(token)}`,
    }),
  }),
});

export const { useCreateShareLinkMutation, useListShareLinksQuery, useRevokeShareLinkMutation, useSharedProjectQuery } = shareApi;
