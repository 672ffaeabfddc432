import { Box, Button, Card, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { ChatMessage } from '@stemdeck/proto';
import { CHAT_MESSAGE_MAX, CHAT_REFETCH_MS } from '@stemdeck/proto/vocabulary';
import { Send } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { failureDescription } from '../export/exportState';
import { chatDraft, chatTime } from './chat';
import { mergeChat } from './liveSession';
import { participantName } from './participants';
import { usePostMessageMutation, useSessionMessagesQuery } from './sessionsApi';
import { notify } from './useSessionRoom';

/**
 * The session's chat: the stored list (fetched again every 5 s) with the messages that arrived live, as plain
 * text; a box of at most 500 characters with its counter; Enter or Send posts the trimmed message.
 */
export function ChatPanel({ sessionId, selfUserId, live, onPosted }: { sessionId: string; selfUserId: string; live: readonly ChatMessage[]; onPosted: (message: ChatMessage) => void }) {
  const { currentData: stored } = useSessionMessagesQuery(sessionId, { pollingInterval: CHAT_REFETCH_MS });
  const [postMessage, { isLoading: pending }] = usePostMessageMutation();
  const [draft, setDraft] = useState('');
  const messages = useMemo(() => mergeChat(stored ?? [], live), [stored, live]);
  const { message, counter, canSend } = chatDraft(draft, pending);
  const list = useRef<HTMLDivElement>(null);

  // The newest message in view.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages.length]);

  const send = async () => {
    if (!canSend) return;
    try {
      const posted = await postMessage({ sessionId, userId: selfUserId, message }).unwrap();
      onPosted(posted);
      setDraft('');
    } catch (error) {
      notify({ title: 'Error sending message', description: failureDescription('Failed to send message', error), type: 'error' });
    }
  };

  return (
    <Card.Root data-testid="session-chat">
      <Card.Body>
        <Stack gap="3">
          <Heading as="h3" size="md">
            Chat
          </Heading>
          <Box ref={list} h="64" overflowY="auto" borderWidth="1px" rounded="md" p="2" data-testid="chat-messages" role="log" aria-label="Chat messages">
            {messages.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                No messages yet. Say hello!
              </Text>
            ) : (
              <Stack gap="2">
                {messages.map((line) => (
                  <Box key={line.id} data-testid="chat-message">
                    <HStack gap="2" fontSize="xs" color="fg.muted">
                      <Text fontWeight="semibold" color="fg">
                        {line.userId === selfUserId ? 'You' : participantName(line)}
                      </Text>
                      <Text>{chatTime(line.createdAt)}</Text>
                    </HStack>
                    <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word" data-testid="chat-message-text">
                      {line.message}
                    </Text>
                  </Box>
                ))}
              </Stack>
            )}
          </Box>
          <HStack gap="2">
            <Input
              aria-label="Chat message"
              placeholder="Type a message..."
              value={draft}
              maxLength={CHAT_MESSAGE_MAX}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  void send();
                }
              }}
              data-testid="chat-input"
            />
            <Button colorPalette="purple" onClick={() => void send()} disabled={!canSend} aria-label="Send message" data-testid="chat-send">
              <Send />
            </Button>
          </HStack>
          <Text fontSize="xs" color="fg.muted" data-testid="chat-counter">
            {counter}
          </Text>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
