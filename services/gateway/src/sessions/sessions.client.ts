import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import {
  ChatMessageListReply,
  ChatMessageReply,
  JoinSessionReply,
  LiveSessionStateReply,
  OkReply,
  ParticipantListReply,
  ParticipantReply,
  SessionAccessReply,
  SessionListReply,
  SessionReply,
  SESSIONS_SUBJECTS,
  type CreateSessionRequest,
  type GuestRole,
  type JoinSessionRequest,
  type LiveChangeRequest,
  type LiveEnterRequest,
  type PostMessageRequest,
  type Reply,
} from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { callService } from '../nats/service-call';

const TIMEOUT_MS = 10_000;

/**
 * The gateway's way to the sessions service (REST edge and live rooms alike): one method per subject, replies
 * validated against proto/, a service's expected failure (403, 404, 409, 429) rethrown as a DomainError with its status.
 */
@Injectable()
export class SessionsClient {
  constructor(private readonly rpc: NatsRpcClient) {}

  create(request: CreateSessionRequest) {
    return this.call(SESSIONS_SUBJECTS.create, request, SessionReply);
  }

  listForUser(userId: string) {
    return this.call(SESSIONS_SUBJECTS.listForUser, { userId }, SessionListReply);
  }

  participants(userId: string, sessionId: string) {
    return this.call(SESSIONS_SUBJECTS.participants, { userId, sessionId }, ParticipantListReply);
  }

  join(request: JoinSessionRequest) {
    return this.call(SESSIONS_SUBJECTS.join, request, JoinSessionReply);
  }

  removeParticipant(userId: string, sessionId: string, targetUserId: string) {
    return this.call(SESSIONS_SUBJECTS.removeParticipant, { userId, sessionId, targetUserId }, OkReply);
  }

  setRole(userId: string, sessionId: string, targetUserId: string, role: GuestRole) {
    return this.call(SESSIONS_SUBJECTS.setRole, { userId, sessionId, targetUserId, role }, ParticipantReply);
  }

  listMessages(userId: string, sessionId: string) {
    return this.call(SESSIONS_SUBJECTS.listMessages, { userId, sessionId }, ChatMessageListReply);
  }

  postMessage(request: PostMessageRequest) {
    return this.call(SESSIONS_SUBJECTS.postMessage, request, ChatMessageReply);
  }

  /** The session and the caller's participant record; 404 for anyone not in it. */
  access(userId: string, sessionId: string) {
    return this.call(SESSIONS_SUBJECTS.access, { userId, sessionId }, SessionAccessReply);
  }

  liveEnter(request: LiveEnterRequest) {
    return this.call(SESSIONS_SUBJECTS.liveEnter, request, LiveSessionStateReply);
  }

  liveExit(request: LiveEnterRequest) {
    return this.call(SESSIONS_SUBJECTS.liveExit, request, OkReply);
  }

  liveChange(request: LiveChangeRequest) {
    return this.call(SESSIONS_SUBJECTS.liveChange, request, OkReply);
  }

  private call<T>(subject: string, payload: unknown, schema: ZodType<Reply<T>>): Promise<T> {
    return callService(this.rpc, subject, payload, schema, TIMEOUT_MS);
  }
}
