import type { ChatMessage, Participant, Session } from '@stemdeck/proto';
import type { ChatMessageDocument, ParticipantDocument, SessionDocument } from './session.schema';

/** Sessions, participants and chat as the contracts in proto/ carry them. */
export const toSession = (doc: SessionDocument, participantCount: number): Session => ({
  id: doc._id,
  name: doc.name,
  projectId: doc.projectId,
  projectName: doc.projectName,
  hostUserId: doc.hostUserId,
  hostName: doc.hostName,
  maxParticipants: doc.maxParticipants,
  isActive: doc.isActive,
  participantCount,
  createdAt: doc.createdAt.toISOString(),
});

export const toParticipant = (doc: ParticipantDocument, isOnline: boolean): Participant => ({
  id: doc._id,
  sessionId: doc.sessionId,
  userId: doc.userId,
  name: doc.name,
  role: doc.role,
  isOnline,
  lastActive: doc.lastActive.toISOString(),
});

export const toChatMessage = (doc: ChatMessageDocument): ChatMessage => ({
  id: doc._id,
  sessionId: doc.sessionId,
  userId: doc.userId,
  name: doc.name,
  message: doc.message,
  type: 'text',
  createdAt: doc.createdAt.toISOString(),
});
