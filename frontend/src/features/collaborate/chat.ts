import { CHAT_MESSAGE_MAX } from '@stemdeck/proto/vocabulary';

/** The chat box's rules: the message is trimmed, an empty one is not sent, at most 500 characters, one send at a time. */
export interface ChatDraft {
  /** What would be sent. */
  message: string;
  /** The live counter under the box, e.g. "12/500 characters". */
  counter: string;
  canSend: boolean;
}

export function chatDraft(draft: string, pending: boolean): ChatDraft {
  const message = draft.trim();
  return { message, counter: `${draft.length}/${CHAT_MESSAGE_MAX} characters`, canSend: !pending && message.length > 0 && message.length <= CHAT_MESSAGE_MAX };
}

/** A chat line's time as people read it: hours and minutes, local. */
export function chatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
