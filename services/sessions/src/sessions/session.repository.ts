import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { SessionRole, StemMix, Transport } from '@stemdeck/proto';
import type { Model } from 'mongoose';
import { PARTICIPANT_MODEL, SESSION_MODEL, type ParticipantDocument, type SessionDocument } from './session.schema';
import { stemMixOf, type StemMixChange, type SessionStore } from './sessions.ports';

const DUPLICATE_KEY = 11000;

/**
 * Session and participant documents, with plain finds and updates only (the test database speaks the
 * MongoDB protocol over SQLite: no joins or aggregations).
 */
@Injectable()
export class SessionRepository implements SessionStore {
  constructor(
    @InjectModel(SESSION_MODEL) private readonly sessions: Model<SessionDocument>,
    @InjectModel(PARTICIPANT_MODEL) private readonly participants: Model<ParticipantDocument>,
  ) {}

  /** The session and its host, both or neither: a session without its host participant is taken back out. */
  async create(session: SessionDocument, host: ParticipantDocument): Promise<void> {
    await this.sessions.create(session);
    try {
      await this.participants.create(host);
    } catch (error) {
      await this.sessions.deleteOne({ _id: session._id }).exec();
      throw error;
    }
  }

  find(sessionId: string): Promise<SessionDocument | null> {
    return this.sessions.findOne({ _id: sessionId }).lean<SessionDocument>().exec();
  }

  async listForUser(userId: string): Promise<SessionDocument[]> {
    const memberships = await this.participants.find({ userId }, { sessionId: 1 }).lean<Array<Pick<ParticipantDocument, 'sessionId'>>>().exec();
    if (memberships.length === 0) return [];
    return this.sessions
      .find({ _id: { $in: memberships.map((membership) => membership.sessionId) } })
      .sort({ createdAt: -1, _id: 1 })
      .lean<SessionDocument[]>()
      .exec();
  }

  listActiveForProject(hostUserId: string, projectId: string): Promise<SessionDocument[]> {
    return this.sessions.find({ hostUserId, projectId, isActive: true }).lean<SessionDocument[]>().exec();
  }

  async end(sessionId: string): Promise<boolean> {
    const result = await this.sessions.updateOne({ _id: sessionId, isActive: true }, { $set: { isActive: false } }).exec();
    return result.matchedCount > 0;
  }

  async setTransport(sessionId: string, transport: Transport): Promise<void> {
    await this.sessions.updateOne({ _id: sessionId }, { $set: { transport } }).exec();
  }

  async updateStemMix(sessionId: string, stemId: string, change: StemMixChange): Promise<StemMix> {
    // Stem ids are media's uuids (checked against the project's stems before this): safe as a field name. Only
    // the changed field is set, so a concurrent change to the other field stays.
    const field = 'volume' in change ? 'volume' : 'muted';
    const after = await this.sessions
      .findOneAndUpdate({ _id: sessionId }, { $set: { [`mix.${stemId}.${field}`]: 'volume' in change ? change.volume : change.muted } }, { new: true })
      .lean<SessionDocument>()
      .exec();
    return stemMixOf(after?.mix, stemId);
  }

  findParticipant(sessionId: string, userId: string): Promise<ParticipantDocument | null> {
    return this.participants.findOne({ sessionId, userId }).lean<ParticipantDocument>().exec();
  }

  listParticipants(sessionId: string): Promise<ParticipantDocument[]> {
    return this.participants.find({ sessionId }).sort({ joinedAt: 1, _id: 1 }).lean<ParticipantDocument[]>().exec();
  }

  async countParticipants(sessionIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(sessionIds.map((id) => [id, 0]));
    if (sessionIds.length === 0) return counts;
    const rows = await this.participants.find({ sessionId: { $in: sessionIds } }, { sessionId: 1 }).lean<Array<Pick<ParticipantDocument, 'sessionId'>>>().exec();
    for (const { sessionId } of rows) counts.set(sessionId, (counts.get(sessionId) ?? 0) + 1);
    return counts;
  }

  async addParticipant(participant: ParticipantDocument): Promise<boolean> {
    try {
      await this.participants.create(participant);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async deleteParticipant(sessionId: string, userId: string): Promise<boolean> {
    const result = await this.participants.deleteOne({ sessionId, userId }).exec();
    return result.deletedCount > 0;
  }

  setRole(sessionId: string, userId: string, role: SessionRole): Promise<ParticipantDocument | null> {
    return this.participants.findOneAndUpdate({ sessionId, userId }, { $set: { role } }, { new: true }).lean<ParticipantDocument>().exec();
  }

  touchParticipant(sessionId: string, userId: string, at: Date): Promise<ParticipantDocument | null> {
    return this.participants.findOneAndUpdate({ sessionId, userId }, { $set: { lastActive: at } }, { new: true }).lean<ParticipantDocument>().exec();
  }
}
