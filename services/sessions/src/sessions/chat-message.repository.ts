import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { CHAT_MESSAGE_MODEL, type ChatMessageDocument } from './session.schema';
import type { ChatStore } from './sessions.ports';

/** Chat message documents (read by session id; the use-cases check the caller is in the session). */
@Injectable()
export class ChatMessageRepository implements ChatStore {
  constructor(@InjectModel(CHAT_MESSAGE_MODEL) private readonly messages: Model<ChatMessageDocument>) {}

  async add(message: ChatMessageDocument): Promise<void> {
    await this.messages.create(message);
  }

  async newest(sessionId: string, limit: number): Promise<ChatMessageDocument[]> {
    const newestFirst = await this.messages.find({ sessionId }).sort({ createdAt: -1, _id: -1 }).limit(limit).lean<ChatMessageDocument[]>().exec();
    return newestFirst.reverse();
  }
}
