import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { answer, parseOrFail } from '@stemdeck/platform';
import {
  CreateSessionRequest,
  JoinSessionRequest,
  ListUserSessionsRequest,
  LiveChangeRequest,
  LiveEnterRequest,
  LiveExitRequest,
  PostMessageRequest,
  RemoveParticipantRequest,
  SESSIONS_SUBJECTS,
  SessionScopedRequest,
  SetRoleRequest,
} from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { LiveChangeUseCase } from '../live/live-change.usecase';
import { LiveEnterUseCase } from '../live/live-enter.usecase';
import { LiveExitUseCase } from '../live/live-exit.usecase';
import { CreateSessionUseCase } from './create-session.usecase';
import { JoinSessionUseCase } from './join-session.usecase';
import { PostMessageUseCase } from './post-message.usecase';
import { RemoveParticipantUseCase } from './remove-participant.usecase';
import { SessionQueries } from './session.queries';
import { SetRoleUseCase } from './set-role.usecase';

/** The requests as parsed (defaults applied): parseOrFail's schema type has equal input and output. */
const CREATE_REQUEST = CreateSessionRequest as unknown as ZodType<CreateSessionRequest>;
const JOIN_REQUEST = JoinSessionRequest as unknown as ZodType<JoinSessionRequest>;
const POST_MESSAGE_REQUEST = PostMessageRequest as unknown as ZodType<PostMessageRequest>;

/** The sessions service's NATS edge: validate with the proto schema, call one use-case, wrap the reply. */
@Controller()
export class SessionsController {
  constructor(
    private readonly createSession: CreateSessionUseCase,
    private readonly joinSession: JoinSessionUseCase,
    private readonly removeParticipant: RemoveParticipantUseCase,
    private readonly setRole: SetRoleUseCase,
    private readonly postMessage: PostMessageUseCase,
    private readonly queries: SessionQueries,
    private readonly liveEnter: LiveEnterUseCase,
    private readonly liveExit: LiveExitUseCase,
    private readonly liveChange: LiveChangeUseCase,
  ) {}

  @MessagePattern(SESSIONS_SUBJECTS.create)
  create(@Payload() payload: unknown) {
    return answer(() => this.createSession.execute(parseOrFail(CREATE_REQUEST, payload)));
  }

  @MessagePattern(SESSIONS_SUBJECTS.listForUser)
  listForUser(@Payload() payload: unknown) {
    return answer(() => this.queries.listForUser(parseOrFail(ListUserSessionsRequest, payload).userId));
  }

  @MessagePattern(SESSIONS_SUBJECTS.participants)
  participants(@Payload() payload: unknown) {
    return answer(() => {
      const { userId, sessionId } = parseOrFail(SessionScopedRequest, payload);
      return this.queries.participants(userId, sessionId);
    });
  }

  @MessagePattern(SESSIONS_SUBJECTS.join)
  join(@Payload() payload: unknown) {
    return answer(() => this.joinSession.execute(parseOrFail(JOIN_REQUEST, payload)));
  }

  @MessagePattern(SESSIONS_SUBJECTS.removeParticipant)
  remove(@Payload() payload: unknown) {
    return answer(() => this.removeParticipant.execute(parseOrFail(RemoveParticipantRequest, payload)));
  }

  @MessagePattern(SESSIONS_SUBJECTS.setRole)
  role(@Payload() payload: unknown) {
    return answer(() => this.setRole.execute(parseOrFail(SetRoleRequest, payload)));
  }

  @MessagePattern(SESSIONS_SUBJECTS.listMessages)
  messages(@Payload() payload: unknown) {
    return answer(() => {
      const { userId, sessionId } = parseOrFail(SessionScopedRequest, payload);
      return this.queries.messages(userId, sessionId);
    });
  }

  @MessagePattern(SESSIONS_SUBJECTS.postMessage)
  post(@Payload() payload: unknown) {
    return answer(() => this.postMessage.execute(parseOrFail(POST_MESSAGE_REQUEST, payload)));
  }

  @MessagePattern(SESSIONS_SUBJECTS.access)
  access(@Payload() payload: unknown) {
    return answer(() => {
      const { userId, sessionId } = parseOrFail(SessionScopedRequest, payload);
      return this.queries.access(userId, sessionId);
    });
  }

  @MessagePattern(SESSIONS_SUBJECTS.liveEnter)
  enter(@Payload() payload: unknown) {
    return answer(() => this.liveEnter.execute(parseOrFail(LiveEnterRequest, payload)));
  }

  @MessagePattern(SESSIONS_SUBJECTS.liveExit)
  exit(@Payload() payload: unknown) {
    return answer(() => this.liveExit.execute(parseOrFail(LiveExitRequest, payload)));
  }

  @MessagePattern(SESSIONS_SUBJECTS.liveChange)
  change(@Payload() payload: unknown) {
    return answer(() => this.liveChange.execute(parseOrFail(LiveChangeRequest, payload)));
  }
}
