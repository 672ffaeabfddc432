import { Avatar, Badge, Box, Card, Heading, HStack, IconButton, Menu, Portal, Stack, Text } from '@chakra-ui/react';
import type { GuestRole, Participant } from '@stemdeck/proto';
import { Lock, MoreVertical, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { initials, lastActiveLabel, participantName, ROLE_NAMES, sortParticipants } from './participants';

/** Now, again every `ms` (the last-active labels move on by themselves). */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * Who is in the session: the host first, then those online, then by role. Mute (whose pads this listener
 * hears) for online hosts and collaborators; a lock for viewers; the host's menu on everyone else.
 */
export function ParticipantsPanel({
  participants,
  selfUserId,
  isHost,
  mutedUsers,
  onToggleMute,
  onRemove,
  onSetRole,
}: {
  participants: readonly Participant[];
  selfUserId: string;
  isHost: boolean;
  mutedUsers: ReadonlySet<string>;
  onToggleMute: (userId: string) => void;
  onRemove: (participant: Participant) => void;
  onSetRole: (participant: Participant, role: GuestRole) => void;
}) {
  const now = useNow(30_000);
  const sorted = sortParticipants(participants);
  return (
    <Card.Root data-testid="participants-panel">
      <Card.Body>
        <Stack gap="3">
          <Heading as="h3" size="md">
            Participants ({participants.length})
          </Heading>
          <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
            {sorted.map((person) => {
              const name = participantName(person);
              const self = person.userId === selfUserId;
              const muted = mutedUsers.has(person.userId);
              return (
                <HStack as="li" key={person.userId} gap="3" data-testid="participant" data-user-id={person.userId} data-online={person.isOnline} data-role={person.role}>
                  <Box position="relative">
                    <Avatar.Root size="sm" colorPalette="purple">
                      <Avatar.Fallback>{initials(name)}</Avatar.Fallback>
                    </Avatar.Root>
                    <Box
                      position="absolute"
                      bottom="0"
                      right="0"
                      boxSize="2.5"
                      rounded="full"
                      borderWidth="2px"
                      borderColor="bg.panel"
                      bg={person.isOnline ? 'green.500' : 'gray.500'}
                      aria-hidden="true"
                    />
                  </Box>
                  <Box flex="1" minW="0">
                    <Text fontSize="sm" fontWeight="medium" truncate data-testid="participant-name">
                      {name}
                      {self ? ' (you)' : ''}
                    </Text>
                    <Text fontSize="xs" color="fg.muted" data-testid="participant-presence">
                      {person.isOnline ? 'Online' : lastActiveLabel(person.lastActive, now)}
                    </Text>
                  </Box>
                  <Badge colorPalette={person.role === 'host' ? 'purple' : person.role === 'collaborator' ? 'blue' : 'gray'} data-testid="participant-role">
                    {ROLE_NAMES[person.role]}
                  </Badge>
                  {person.role === 'viewer' ? (
                    <Box color="fg.muted" title="Viewer: listens and chats" aria-label="Viewer: listens and chats" role="img" data-testid="participant-viewer-lock">
                      <Lock size={16} />
                    </Box>
                  ) : (
                    person.isOnline &&
                    !self && (
                      <IconButton
                        size="xs"
                        variant="ghost"
                        aria-label={muted ? `Unmute ${name}` : `Mute ${name}`}
                        aria-pressed={muted}
                        onClick={() => onToggleMute(person.userId)}
                        data-testid="participant-mute"
                      >
                        {muted ? <VolumeX /> : <Volume2 />}
                      </IconButton>
                    )
                  )}
                  {isHost && !self && person.role !== 'host' && (
                    <Menu.Root>
                      <Menu.Trigger asChild>
                        <IconButton size="xs" variant="ghost" aria-label={`Actions for ${name}`} data-testid="participant-actions">
                          <MoreVertical />
                        </IconButton>
                      </Menu.Trigger>
                      <Portal>
                        <Menu.Positioner>
                          <Menu.Content>
                            <Menu.Item value="role" onSelect={() => onSetRole(person, person.role === 'viewer' ? 'collaborator' : 'viewer')}>
                              {person.role === 'viewer' ? 'Make Collaborator' : 'Make Viewer'}
                            </Menu.Item>
                            <Menu.Item value="remove" color="fg.error" onSelect={() => onRemove(person)}>
                              Remove from session
                            </Menu.Item>
                          </Menu.Content>
                        </Menu.Positioner>
                      </Portal>
                    </Menu.Root>
                  )}
                </HStack>
              );
            })}
          </Stack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
