import type { ChatMessage, CreateSessionBody, GuestRole, Participant, Session, SessionRole, Stem } from '@stemdeck/proto';
import { api } from '../../api/api';

/**
 * The collaborative sessions endpoints on the shared API slice. Types are proto's own contracts, imported as
 * types only, so no schema code reaches the bundle. Every session change refreshes the lists it touches.
 */
export type { ChatMessage, Participant, Session, SessionRole };

const sessionsApiWithTags = api.enhanceEndpoints({ addTagTypes: ['Sessions', 'Participants', 'Messages'] });

const sessionPath = (sessionId: string) => `sessions/${encodeURIComponent(sessionId)}`;

export const sessionsApi = sessionsApiWithTags.injectEndpoints({
  endpoints: (build) => ({
    /** The sessions this user hosts or has joined. */
    userSessions: build.query<Session[], string>({
      query: (userId) => `users/${encodeURIComponent(userId)}/sessions`,
      providesTags: ['Sessions'],
    }),
    createSession: build.mutation<Session, CreateSessionBody>({
      query: (body) => ({ url: 'sessions', method: 'POST', body }),
      invalidatesTags: ['Sessions'],
    }),
    sessionParticipants: build.query<Participant[], string>({
      query: (sessionId) => `${sessionPath(sessionId)}/participants`,
      providesTags: (_result, _error, sessionId) => [{ type: 'Participants', id: sessionId }],
    }),
    /** A first join takes `role`; joining again keeps the role the host gave. */
    joinSession: build.mutation<{ session: Session; participant: Participant }, { sessionId: string; userId: string; role: SessionRole }>({
      query: ({ sessionId, userId, role }) => ({ url: `${sessionPath(sessionId)}/join`, method: 'POST', body: { userId, role } }),
      invalidatesTags: (_result, _error, { sessionId }) => ['Sessions', { type: 'Participants', id: sessionId }],
    }),
    /** Leave (yourself; the host leaving ends the session) or, as the host, remove someone. */
    removeParticipant: build.mutation<void, { sessionId: string; userId: string }>({
      query: ({ sessionId, userId }) => ({ url: `${sessionPath(sessionId)}/participants/${encodeURIComponent(userId)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { sessionId }) => ['Sessions', { type: 'Participants', id: sessionId }],
    }),
    /** The host makes someone a viewer or a collaborator. */
    setParticipantRole: build.mutation<Participant, { sessionId: string; userId: string; role: GuestRole }>({
      query: ({ sessionId, userId, role }) => ({ url: `${sessionPath(sessionId)}/participants/${encodeURIComponent(userId)}`, method: 'PATCH', body: { role } }),
      invalidatesTags: (_result, _error, { sessionId }) => [{ type: 'Participants', id: sessionId }],
    }),
    /** The chat, oldest first (polled; new messages also arrive live). */
    sessionMessages: build.query<ChatMessage[], string>({
      query: (sessionId) => `${sessionPath(sessionId)}/messages`,
      providesTags: (_result, _error, sessionId) => [{ type: 'Messages', id: sessionId }],
    }),
    postMessage: build.mutation<ChatMessage, { sessionId: string; userId: string; message: string }>({
      query: ({ sessionId, userId, message }) => ({ url: `${sessionPath(sessionId)}/messages`, method: 'POST', body: { userId, message, type: 'text' } }),
    }),
    /** The session project's stems (participants only), each playable from a url of the session. */
    sessionStems: build.query<Stem[], string>({ query: (sessionId) => `${sessionPath(sessionId)}/stems` }),
  }),
});

export const {
  useUserSessionsQuery,
  useCreateSessionMutation,
  useSessionParticipantsQuery,
  useJoinSessionMutation,
  useRemoveParticipantMutation,
  useSetParticipantRoleMutation,
  useSessionMessagesQuery,
  usePostMessageMutation,
  useSessionStemsQuery,
} = sessionsApi;
