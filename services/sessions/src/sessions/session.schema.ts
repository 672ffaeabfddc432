import { Schema } from 'mongoose';
import type { SessionRole, StemMix, Transport } from '@stemdeck/proto';

export const SESSION_MODEL = 'CollaborationSession';
export const PARTICIPANT_MODEL = 'SessionParticipant';
export const CHAT_MESSAGE_MODEL = 'SessionChatMessage';

/** A collaborative session on its host's project, with the shared mix and transport everyone follows. */
export interface SessionDocument {
  _id: string;
  name: string;
  projectId: string;
  /** The project's name when the session was made. */
  projectName: string;
  hostUserId: string;
  hostName: string;
  maxParticipants: number;
  isActive: boolean;
  createdAt: Date;
  /** stem id → level and mute; a stem not listed plays at full level, unmuted. */
  mix: Record<string, StemMix>;
  transport: Transport;
}

/** One person in a session (the host too). Leaving or being removed deletes the document. */
export interface ParticipantDocument {
  _id: string;
  sessionId: string;
  userId: string;
  name: string;
  role: SessionRole;
  joinedAt: Date;
  lastActive: Date;
}

export interface ChatMessageDocument {
  _id: string;
  sessionId: string;
  userId: string;
  name: string;
  message: string;
  type: 'text';
  createdAt: Date;
}

export const SessionSchema = new Schema<SessionDocument>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    projectId: { type: String, required: true },
    projectName: { type: String, default: '' },
    hostUserId: { type: String, required: true },
    hostName: { type: String, required: true },
    maxParticipants: { type: Number, required: true },
    isActive: { type: Boolean, required: true },
    createdAt: { type: Date, required: true },
    mix: { type: Schema.Types.Mixed, default: {} },
    transport: {
      playing: { type: Boolean, required: true },
      position: { type: Number, required: true },
      at: { type: Number, required: true },
    },
  },
  // minimize off: an empty mix is stored as {} rather than dropped.
  { versionKey: false, collection: 'sessions', minimize: false },
);
// The project's sessions end when the project is deleted.
SessionSchema.index({ hostUserId: 1, projectId: 1 });

export const ParticipantSchema = new Schema<ParticipantDocument>(
  {
    _id: { type: String, required: true },
    sessionId: { type: String, required: true },
    userId: { type: String, required: true },
    name: { type: String, required: true },
    role: { type: String, required: true },
    joinedAt: { type: Date, required: true },
    lastActive: { type: Date, required: true },
  },
  { versionKey: false, collection: 'session_participants' },
);
ParticipantSchema.index({ sessionId: 1, userId: 1 }, { unique: true });
// A user's sessions (the ones they host or joined).
ParticipantSchema.index({ userId: 1 });

export const ChatMessageSchema = new Schema<ChatMessageDocument>(
  {
    _id: { type: String, required: true },
    sessionId: { type: String, required: true },
    userId: { type: String, required: true },
    name: { type: String, required: true },
    message: { type: String, required: true },
    type: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'session_chat_messages' },
);
ChatMessageSchema.index({ sessionId: 1, createdAt: 1 });
