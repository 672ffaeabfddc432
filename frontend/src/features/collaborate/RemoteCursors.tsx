import { Box, Text } from '@chakra-ui/react';
import { MousePointer2 } from 'lucide-react';
import type { RemoteCursor } from './liveSession';
import { participantName } from './participants';

/** The other participants' pointers over this page, each with their name (positions are fractions of the page). */
export function RemoteCursors({ cursors }: { cursors: Record<string, RemoteCursor> }) {
  return (
    <Box position="absolute" inset="0" pointerEvents="none" overflow="hidden" zIndex="overlay" aria-hidden="true">
      {Object.values(cursors).map((cursor) => (
        <Box
          key={cursor.userId}
          position="absolute"
          left={`${cursor.x * 100}%`}
          top={`${cursor.y * 100}%`}
          transition="left 100ms linear, top 100ms linear"
          data-testid="remote-cursor"
          data-user-id={cursor.userId}
        >
          <MousePointer2 size={18} color="var(--chakra-colors-purple-400)" fill="var(--chakra-colors-purple-400)" />
          <Text ml="3" px="1.5" py="0.5" rounded="sm" bg="purple.700" color="white" fontSize="xs" fontWeight="medium" whiteSpace="nowrap" data-testid="remote-cursor-name">
            {participantName({ name: cursor.name, userId: cursor.userId })}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
