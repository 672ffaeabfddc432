import type { Clock, IdGenerator } from '@stemdeck/platform';
import { PRESENCE_TTL_MS, SessionEvent, type SessionEventMessage, type SessionRole, type StemMix, type StemRecord, type Transport } from '@stemdeck/proto';
import type { ChatMessageDocument, ParticipantDocument, SessionDocument } from '../session.schema';
import { stemMixOf, type ChatStore, type PresenceBoard, type SessionEventPublisher, type SessionProjects, type SessionStore, type StemMixChange } from '../sessions.ports';

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

/** Ids `<prefix>-1`, `<prefix>-2`, … in the order they are asked for. */
export class SequentialIds implements IdGenerator {
  private issued = 0;

  constructor(private readonly prefix = 'id') {}

  randomUUID(): string {
    return `${this.prefix}-${++this.issued}`;
  }
}

const copy = <T extends object>(doc: T): T => structuredClone(doc);

/** Sessions and participants in maps, answering as the repository does. */
export class InMemorySessions implements SessionStore {
  readonly sessions = new Map<string, SessionDocument>();
  readonly participants: ParticipantDocument[] = [];

  async create(session: SessionDocument, host: ParticipantDocument): Promise<void> {
    this.sessions.set(session._id, copy(session));
    this.participants.push(copy(host));
  }

  async find(sessionId: string): Promise<SessionDocument | null> {
    const session = this.sessions.get(sessionId);
    return session ? copy(session) : null;
  }

  async listForUser(userId: string): Promise<SessionDocument[]> {
    const ids = new Set(this.participants.filter((p) => p.userId === userId).map((p) => p.sessionId));
    return [...this.sessions.values()]
      .filter((session) => ids.has(session._id))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map(copy);
  }

  async listActiveForProject(hostUserId: string, projectId: string): Promise<SessionDocument[]> {
    return [...this.sessions.values()].filter((s) => s.hostUserId === hostUserId && s.projectId === projectId && s.isActive).map(copy);
  }

  async end(sessionId: string): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (!session?.isActive) return false;
    session.isActive = false;
    return true;
  }

  async setTransport(sessionId: string, transport: Transport): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (session) session.transport = { ...transport };
  }

  async updateStemMix(sessionId: string, stemId: string, change: StemMixChange): Promise<StemMix> {
    const session = this.sessions.get(sessionId);
    if (session) session.mix = { ...session.mix, [stemId]: { ...session.mix[stemId], ...change } as StemMix };
    return stemMixOf(session?.mix, stemId);
  }

  async findParticipant(sessionId: string, userId: string): Promise<ParticipantDocument | null> {
    const participant = this.participants.find((p) => p.sessionId === sessionId && p.userId === userId);
    return participant ? copy(participant) : null;
  }

  async listParticipants(sessionId: string): Promise<ParticipantDocument[]> {
    return this.participants
      .filter((p) => p.sessionId === sessionId)
      .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || a._id.localeCompare(b._id))
      .map(copy);
  }

  async countParticipants(sessionIds: string[]): Promise<Map<string, number>> {
    return new Map(sessionIds.map((id) => [id, this.participants.filter((p) => p.sessionId === id).length]));
  }

  async addParticipant(participant: ParticipantDocument): Promise<boolean> {
    if (this.participants.some((p) => p.sessionId === participant.sessionId && p.userId === participant.userId)) return false;
    this.participants.push(copy(participant));
    return true;
  }

  async deleteParticipant(sessionId: string, userId: string): Promise<boolean> {
    const index = this.participants.findIndex((p) => p.sessionId === sessionId && p.userId === userId);
    if (index < 0) return false;
    this.participants.splice(index, 1);
    return true;
  }

  async setRole(sessionId: string, userId: string, role: SessionRole): Promise<ParticipantDocument | null> {
    const participant = this.participants.find((p) => p.sessionId === sessionId && p.userId === userId);
    if (!participant) return null;
    participant.role = role;
    return copy(participant);
  }

  async touchParticipant(sessionId: string, userId: string, at: Date): Promise<ParticipantDocument | null> {
    const participant = this.participants.find((p) => p.sessionId === sessionId && p.userId === userId);
    if (!participant) return null;
    participant.lastActive = at;
    return copy(participant);
  }
}

/** Chat messages in a list. */
export class InMemoryChat implements ChatStore {
  readonly messages: ChatMessageDocument[] = [];

  async add(message: ChatMessageDocument): Promise<void> {
    this.messages.push(copy(message));
  }

  async newest(sessionId: string, limit: number): Promise<ChatMessageDocument[]> {
    const ordered = this.messages.filter((m) => m.sessionId === sessionId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    return ordered.slice(Math.max(0, ordered.length - limit)).map(copy);
  }
}

/** The events published, each checked against the contract (a malformed event fails the test that made it). */
export class RecordingEvents implements SessionEventPublisher {
  readonly published: Array<{ sessionId: string; event: SessionEvent }> = [];

  publish(sessionId: string, event: SessionEvent): void {
    this.published.push({ sessionId, event: SessionEvent.parse(event) });
  }

  /** The messages of one type, in order. */
  ofType<T extends SessionEventMessage['type']>(type: T): Array<Extract<SessionEventMessage, { type: T }>> {
    return this.published.map(({ event }) => event.message).filter((message): message is Extract<SessionEventMessage, { type: T }> => message.type === type);
  }

  clear(): void {
    this.published.length = 0;
  }
}

/** Media's projects (owner/project → name) and their stems. */
export class FakeProjects implements SessionProjects {
  private readonly names = new Map<string, string>();
  private readonly stemIds = new Map<string, string[]>();
  stemReads = 0;

  add(ownerId: string, projectId: string, name: string, stemIds: string[] = []): this {
    this.names.set(`${ownerId}/${projectId}`, name);
    this.stemIds.set(`${ownerId}/${projectId}`, stemIds);
    return this;
  }

  setStems(ownerId: string, projectId: string, stemIds: string[]): void {
    this.stemIds.set(`${ownerId}/${projectId}`, stemIds);
  }

  async projectName(ownerId: string, projectId: string): Promise<string | null> {
    return this.names.get(`${ownerId}/${projectId}`) ?? null;
  }

  async stems(ownerId: string, projectId: string): Promise<StemRecord[]> {
    this.stemReads += 1;
    return (this.stemIds.get(`${ownerId}/${projectId}`) ?? []).map((id) => ({
      id,
      projectId,
      type: 'vocals',
      engine: 'fast',
      volume: 0,
      muted: false,
      soloed: false,
      quality: 'standard',
      version: 'original',
      enhanced: null,
    }));
  }
}

/** The presence bucket: keys that expire PRESENCE_TTL_MS after their last put, on the given clock. */
export class InMemoryPresenceBoard implements PresenceBoard {
  readonly expiresAt = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = PRESENCE_TTL_MS,
  ) {}

  async put(sessionId: string, userId: string, connectionId: string): Promise<void> {
    this.expiresAt.set(`${sessionId}.${userId}.${connectionId}`, this.clock.now() + this.ttlMs);
  }

  async delete(sessionId: string, userId: string, connectionId: string): Promise<void> {
    this.expiresAt.delete(`${sessionId}.${userId}.${connectionId}`);
  }

  async deleteUser(sessionId: string, userId: string): Promise<void> {
    for (const key of this.liveKeys()) if (key.startsWith(`${sessionId}.${userId}.`)) this.expiresAt.delete(key);
  }

  async onlineUsers(sessionId: string): Promise<Set<string>> {
    return new Set(this.liveKeys().filter((key) => key.startsWith(`${sessionId}.`)).map((key) => key.split('.')[1]));
  }

  async isOnline(sessionId: string, userId: string): Promise<boolean> {
    return this.liveKeys().some((key) => key.startsWith(`${sessionId}.${userId}.`));
  }

  async onlinePairs(): Promise<Array<{ sessionId: string; userId: string }>> {
    const pairs = new Map<string, { sessionId: string; userId: string }>();
    for (const key of this.liveKeys()) {
      const [sessionId, userId] = key.split('.');
      pairs.set(`${sessionId}.${userId}`, { sessionId, userId });
    }
    return [...pairs.values()];
  }

  liveKeys(): string[] {
    return [...this.expiresAt].filter(([, at]) => at > this.clock.now()).map(([key]) => key);
  }
}
