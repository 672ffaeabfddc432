import { LiveChangeUseCase } from '../../live/live-change.usecase';
import { LiveEnterUseCase } from '../../live/live-enter.usecase';
import { LiveExitUseCase } from '../../live/live-exit.usecase';
import { PresenceTracker } from '../../live/presence-tracker';
import { SessionStems } from '../../live/session-stems';
import { ChatRateLimiter } from '../chat-rate-limiter';
import { CreateSessionUseCase } from '../create-session.usecase';
import { EndProjectSessionsUseCase } from '../end-project-sessions.usecase';
import { SessionEnder } from '../end-session';
import { JoinSessionUseCase } from '../join-session.usecase';
import { PostMessageUseCase } from '../post-message.usecase';
import { RemoveParticipantUseCase } from '../remove-participant.usecase';
import { SessionAccess } from '../session-access';
import { SessionQueries } from '../session.queries';
import { SetRoleUseCase } from '../set-role.usecase';
import { FakeProjects, InMemoryChat, InMemoryPresenceBoard, InMemorySessions, ManualClock, RecordingEvents, SequentialIds } from './fakes';

/** The session use-cases wired as SessionsModule wires them, over in-memory fakes. */
export function sessionsWorld() {
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const sessions = new InMemorySessions();
  const chat = new InMemoryChat();
  const events = new RecordingEvents();
  const projects = new FakeProjects();
  const board = new InMemoryPresenceBoard(clock);
  const access = new SessionAccess(sessions, board);
  const presence = new PresenceTracker(board, sessions, events, clock);
  const ender = new SessionEnder(sessions, events, presence);
  return {
    clock,
    sessions,
    chat,
    events,
    projects,
    board,
    presence,
    create: new CreateSessionUseCase(sessions, projects, clock, ids),
    join: new JoinSessionUseCase(sessions, events, access, clock, ids),
    remove: new RemoveParticipantUseCase(sessions, events, access, presence, ender),
    setRole: new SetRoleUseCase(sessions, events, access),
    post: new PostMessageUseCase(chat, events, access, new ChatRateLimiter(clock), clock, ids),
    queries: new SessionQueries(sessions, chat, access),
    endProject: new EndProjectSessionsUseCase(sessions, ender),
    enter: new LiveEnterUseCase(access, presence, chat),
    exit: new LiveExitUseCase(presence),
    change: new LiveChangeUseCase(sessions, events, access, new SessionStems(projects), clock),
  };
}
export type SessionsWorld = ReturnType<typeof sessionsWorld>;
