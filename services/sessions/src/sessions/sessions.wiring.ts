import type { Provider, Type } from '@nestjs/common';
import type { ModelDefinition } from '@nestjs/mongoose';
import { CLOCK, type Clock } from '@stemdeck/platform';
import { LiveChangeUseCase } from '../live/live-change.usecase';
import { LiveEnterUseCase } from '../live/live-enter.usecase';
import { LiveExitUseCase } from '../live/live-exit.usecase';
import { PresenceSweep } from '../live/presence.sweep';
import { PresenceTracker } from '../live/presence-tracker';
import { SessionStems } from '../live/session-stems';
import { ChatMessageRepository } from './chat-message.repository';
import { ChatRateLimiter } from './chat-rate-limiter';
import { CreateSessionUseCase } from './create-session.usecase';
import { EndProjectSessionsUseCase } from './end-project-sessions.usecase';
import { SessionEnder } from './end-session';
import { JoinSessionUseCase } from './join-session.usecase';
import { MediaSessionProjects } from './peers/media-projects.adapter';
import { PostMessageUseCase } from './post-message.usecase';
import { SessionsProjectDeletedListener } from './project-deleted.listener';
import { RemoveParticipantUseCase } from './remove-participant.usecase';
import { SessionAccess } from './session-access';
import { NatsSessionEvents } from './session-events.adapter';
import { SessionQueries } from './session.queries';
import { SessionRepository } from './session.repository';
import { CHAT_MESSAGE_MODEL, ChatMessageSchema, PARTICIPANT_MODEL, ParticipantSchema, SESSION_MODEL, SessionSchema } from './session.schema';
import { SessionsController } from './sessions.controller';
import { CHAT_STORE, SESSION_EVENTS, SESSION_PROJECTS, SESSION_STORE } from './sessions.ports';
import { SetRoleUseCase } from './set-role.usecase';

/**
 * Sessions, participants, chat and the live rooms' shared state: models, NATS handlers and providers (wired
 * by SessionsModule, which also provides the presence board, the event bus and the media client).
 */
export const SESSIONS_MODELS: ModelDefinition[] = [
  { name: SESSION_MODEL, schema: SessionSchema },
  { name: PARTICIPANT_MODEL, schema: ParticipantSchema },
  { name: CHAT_MESSAGE_MODEL, schema: ChatMessageSchema },
];
export const SESSIONS_CONTROLLERS: Type[] = [SessionsController];
export const SESSIONS_PROVIDERS: Provider[] = [
  SessionRepository,
  ChatMessageRepository,
  NatsSessionEvents,
  MediaSessionProjects,
  { provide: SESSION_STORE, useExisting: SessionRepository },
  { provide: CHAT_STORE, useExisting: ChatMessageRepository },
  { provide: SESSION_EVENTS, useExisting: NatsSessionEvents },
  { provide: SESSION_PROJECTS, useExisting: MediaSessionProjects },
  SessionAccess,
  PresenceTracker,
  SessionEnder,
  SessionStems,
  { provide: ChatRateLimiter, inject: [CLOCK], useFactory: (clock: Clock) => new ChatRateLimiter(clock) },
  CreateSessionUseCase,
  JoinSessionUseCase,
  RemoveParticipantUseCase,
  SetRoleUseCase,
  PostMessageUseCase,
  SessionQueries,
  EndProjectSessionsUseCase,
  SessionsProjectDeletedListener,
  LiveEnterUseCase,
  LiveExitUseCase,
  LiveChangeUseCase,
  PresenceSweep,
];
