import { Avatar, Badge, Box, Button, Card, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import type { Session } from '@stemdeck/proto';
import { ChevronDown, ChevronRight, LogIn, Plus, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { initials, participantName, ROLE_NAMES, sortParticipants } from './participants';
import { useSessionParticipantsQuery } from './sessionsApi';

/** A session's creation date as people read it. */
export function sessionDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function SessionParticipants({ sessionId }: { sessionId: string }) {
  const { currentData: people, isFetching, isError } = useSessionParticipantsQuery(sessionId, { refetchOnMountOrArgChange: true });
  if (isError) return <Text fontSize="sm" color="fg.error">The participants could not be loaded.</Text>;
  if (!people) return isFetching ? <Spinner size="sm" aria-label="Loading participants" /> : null;
  return (
    <Stack as="ul" gap="2" listStyleType="none" m="0" p="0" data-testid="session-card-participants">
      {sortParticipants(people).map((person) => (
        <HStack as="li" key={person.userId} gap="2">
          <Avatar.Root size="xs" colorPalette="purple">
            <Avatar.Fallback>{initials(participantName(person))}</Avatar.Fallback>
          </Avatar.Root>
          <Text fontSize="sm" flex="1">
            {participantName(person)}
          </Text>
          <Badge size="sm" colorPalette={person.role === 'host' ? 'purple' : 'gray'}>
            {ROLE_NAMES[person.role]}
          </Badge>
        </HStack>
      ))}
    </Stack>
  );
}

function SessionCard({
  session,
  selfUserId,
  expanded,
  onToggle,
  current,
  busy,
  onJoin,
  onEnd,
}: {
  session: Session;
  selfUserId: string;
  expanded: boolean;
  onToggle: () => void;
  current: boolean;
  busy: boolean;
  onJoin: () => void;
  onEnd: () => void;
}) {
  const isHost = session.hostUserId === selfUserId;
  return (
    <Card.Root data-testid="session-card" data-session-id={session.id} data-active={session.isActive}>
      <Card.Body gap="3">
        <HStack
          as="button"
          onClick={onToggle}
          aria-expanded={expanded}
          textAlign="left"
          gap="3"
          w="full"
          cursor="pointer"
          rounded="md"
          _focusVisible={{ outline: '2px solid', outlineColor: 'purple.500' }}
        >
          {expanded ? <ChevronDown size={18} /> : <ChevronRight size={18} />}
          <Box flex="1" minW="0">
            <Heading as="h3" size="md" truncate data-testid="session-card-name">
              {session.name}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {session.projectName} · hosted by {isHost ? 'you' : session.hostName} · created {sessionDate(session.createdAt)}
            </Text>
          </Box>
          <HStack gap="2" flexShrink={0}>
            <Text fontSize="sm" color="fg.muted" data-testid="session-card-count">
              <Users size={14} style={{ display: 'inline', verticalAlign: '-2px' }} /> {session.participantCount} / {session.maxParticipants} participants
            </Text>
            <Badge colorPalette={session.isActive ? 'green' : 'gray'} variant="solid" data-testid="session-card-status">
              {session.isActive ? 'Active' : 'Inactive'}
            </Badge>
          </HStack>
        </HStack>
        {expanded && (
          <Stack gap="3" pl="8">
            <SessionParticipants sessionId={session.id} />
            <HStack gap="2">
              <Button size="sm" colorPalette="purple" disabled={!session.isActive || busy} onClick={onJoin} data-testid="session-card-join">
                <LogIn /> {current ? 'Open' : 'Join'}
              </Button>
              {isHost && session.isActive && (
                <Button size="sm" variant="outline" colorPalette="red" disabled={busy} onClick={onEnd} data-testid="session-card-end">
                  Leave and end session
                </Button>
              )}
            </HStack>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** "Sessions": the person's sessions (hosted or joined), Create and Join, and each session's participants on demand. */
export function SessionsTab({
  selfUserId,
  sessions,
  loading,
  failed,
  currentSessionId,
  busy,
  onCreate,
  onJoinDialog,
  onJoin,
  onEnd,
}: {
  selfUserId: string;
  sessions: readonly Session[] | undefined;
  loading: boolean;
  failed: boolean;
  currentSessionId: string | null;
  busy: boolean;
  onCreate: () => void;
  onJoinDialog: () => void;
  onJoin: (session: Session) => void;
  onEnd: (session: Session) => void;
}) {
  const [expanded, setExpanded] = useState<string | null>(null);
  const newestFirst = sessions ? [...sessions].sort((a, b) => b.createdAt.localeCompare(a.createdAt)) : undefined;
  return (
    <Stack gap="5" data-testid="sessions-tab">
      <HStack justify="space-between" align="flex-start" wrap="wrap" gap="3">
        <Box>
          <Heading as="h2" size="xl">
            Collaborative Sessions
          </Heading>
          <Text color="fg.muted">Create or join real-time music sessions</Text>
        </Box>
        <HStack gap="2">
          <Button variant="outline" onClick={onJoinDialog} data-testid="open-join-session">
            <UserPlus /> Join Session
          </Button>
          <Button colorPalette="purple" onClick={onCreate} data-testid="open-create-session">
            <Plus /> Create Session
          </Button>
        </HStack>
      </HStack>
      {failed ? (
        <Text color="fg.error">Your sessions could not be loaded. Reload the page to try again.</Text>
      ) : !newestFirst ? (
        loading && <Spinner aria-label="Loading sessions" />
      ) : newestFirst.length === 0 ? (
        <Card.Root data-testid="sessions-empty">
          <Card.Body alignItems="center" textAlign="center" gap="3" py="10">
            <Users size={32} />
            <Heading as="h3" size="md">
              No sessions yet
            </Heading>
            <Text color="fg.muted">Start one on a project of yours and invite others to play along.</Text>
            <Button colorPalette="purple" onClick={onCreate}>
              <Plus /> Create Your First Session
            </Button>
          </Card.Body>
        </Card.Root>
      ) : (
        <Stack gap="3">
          {newestFirst.map((session) => (
            <SessionCard
              key={session.id}
              session={session}
              selfUserId={selfUserId}
              expanded={expanded === session.id}
              onToggle={() => setExpanded((open) => (open === session.id ? null : session.id))}
              current={currentSessionId === session.id}
              busy={busy}
              onJoin={() => onJoin(session)}
              onEnd={() => onEnd(session)}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

