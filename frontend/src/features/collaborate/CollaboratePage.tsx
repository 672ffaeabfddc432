import { Badge, Box, Button, Card, Container, Grid, Heading, HStack, Stack, Tabs, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import type { GuestRole, Participant, Session, SessionRole } from '@stemdeck/proto';
import { Copy, LogOut, Radio } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetCurrentUserQuery } from '../../api/api';
import { useAppSelector } from '../../app/hooks';
import { PageHeader } from '../../ui/PageHeader';
import { failureDescription } from '../export/exportState';
import { useLiveConnection } from '../live/useLiveConnection';
import { AudioControlTab, copyText, inviteLink } from './AudioControlTab';
import { ChatPanel } from './ChatPanel';
import { CollaborationPads } from './CollaborationPads';
import { CursorSender, pageFraction } from './cursorSender';
import type { LiveSession } from './liveSession';
import { ParticipantsPanel } from './ParticipantsPanel';
import { canPerform, onlineCount, participantName } from './participants';
import { CreateSessionDialog, JoinSessionDialog, type CreateSessionInput } from './SessionDialogs';
import { SessionsTab } from './SessionsTab';
import { SessionTransport } from './SessionTransport';
import { RemoteCursors } from './RemoteCursors';
import {
  useCreateSessionMutation,
  useJoinSessionMutation,
  useRemoveParticipantMutation,
  useSetParticipantRoleMutation,
  useUserSessionsQuery,
} from './sessionsApi';
import { notify, notifyError, useSessionRoom, wakeAudio, type SessionRoom } from './useSessionRoom';

type Tab = 'sessions' | 'live' | 'audio';

/** Shown on the Live Session and Audio Control tabs while this page is in no session. */
function NoActiveSession({ onBrowse }: { onBrowse: () => void }) {
  return (
    <Card.Root data-testid="no-active-session">
      <Card.Body alignItems="center" textAlign="center" gap="3" py="10">
        <Radio size={32} />
        <Heading as="h2" size="lg">
          No Active Session
        </Heading>
        <Text color="fg.muted">Join or create a session to play, mix and chat together.</Text>
        <Button colorPalette="purple" onClick={onBrowse}>
          Browse Sessions
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

/** The session this page is in: its name, this person's place in it, who is online, the invite link and Leave. */
function SessionBar({ session, role, onLeave, leaving }: { session: LiveSession; role: SessionRole; onLeave: () => void; leaving: boolean }) {
  const online = onlineCount(session.participants);
  return (
    <Card.Root data-testid="session-bar" borderColor="purple.500">
      <Card.Body py="3">
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Stack gap="1" minW="0">
            <HStack gap="2" wrap="wrap">
              <Heading as="h2" size="lg" truncate data-testid="session-bar-name">
                {session.session.name}
              </Heading>
              <Badge colorPalette={role === 'host' ? 'purple' : 'blue'} variant="solid" data-testid="session-bar-role">
                {role === 'host' ? 'Host' : 'Participant'}
              </Badge>
              <Text fontSize="sm" color="fg.muted" data-testid="session-bar-online">
                {online} online
              </Text>
            </HStack>
            {role === 'host' && (
              <Text fontSize="xs" color="fg.muted">
                You are the host: leaving ends the session for everyone.
              </Text>
            )}
          </Stack>
          <HStack gap="2">
            <Button size="sm" variant="outline" onClick={() => void copyText(inviteLink(window.location.origin, session.sessionId), 'Invite link copied to clipboard')} data-testid="session-bar-copy-invite">
              <Copy /> Copy Invite Link
            </Button>
            <Button size="sm" colorPalette="red" variant="outline" onClick={onLeave} disabled={leaving} data-testid="session-leave">
              <LogOut /> Leave
            </Button>
          </HStack>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

/** "Live Session": who is here, the pads, the shared playback and the chat. */
function LiveSessionView({
  session,
  room,
  selfUserId,
  volume,
  onVolume,
  onRemove,
  onSetRole,
}: {
  session: LiveSession;
  room: SessionRoom;
  selfUserId: string;
  volume: number;
  onVolume: (volume: number) => void;
  onRemove: (participant: Participant) => void;
  onSetRole: (participant: Participant, role: GuestRole) => void;
}) {
  const canPlay = canPerform(session.role);
  return (
    <Grid templateColumns={{ base: '1fr', lg: '260px minmax(0, 1fr) 300px' }} gap="6" alignItems="start" data-testid="live-session">
      <ParticipantsPanel
        participants={session.participants}
        selfUserId={selfUserId}
        isHost={session.role === 'host'}
        mutedUsers={room.mutedUsers}
        onToggleMute={room.toggleMute}
        onRemove={onRemove}
        onSetRole={onSetRole}
      />
      <Stack gap="6" minW="0">
        <CollaborationPads canPlay={canPlay} pressed={room.pressed} pulsing={room.pulsing} remoteHits={room.remoteHits} onPress={room.pressPad} />
        <SessionTransport
          playing={session.transport.playing}
          canControl={canPlay}
          stemsReady={room.stemsReady}
          hasStems={room.stems === undefined || room.stems.length > 0}
          volume={volume}
          onVolume={onVolume}
          onPlay={room.play}
          onPause={room.pause}
          startedWallMs={room.startedWallMs}
        />
      </Stack>
      <ChatPanel key={session.sessionId} sessionId={session.sessionId} selfUserId={selfUserId} live={session.chat} onPosted={room.chatPosted} />
    </Grid>
  );
}

/**
 * /collaborate: real-time sessions on a host's project. The Sessions tab lists, creates and joins sessions
 * (by a card, a session ID or an invite link /collaborate?session=<id>); in a session, Live Session has the
 * participants, pads, shared playback and chat, and Audio Control the shared mix and the session's settings.
 * Everything live goes over this page's /ws connection; the badge says whether it is up.
 */
export function CollaboratePage() {
  const live = useLiveConnection();
  const connected = useAppSelector((state) => state.live.status) === 'connected';
  const { data: user } = useGetCurrentUserQuery();
  const userId = user?.id ?? '';
  const room = useSessionRoom(live, userId || null);
  const current = room.state.current;
  const [tab, setTab] = useState<Tab>('sessions');
  const [volume, setVolume] = useState(100);
  const [searchParams, setSearchParams] = useSearchParams();
  const invitedId = searchParams.get('session') ?? '';
  const [joinOpen, setJoinOpen] = useState(Boolean(invitedId));
  const [createOpen, setCreateOpen] = useState(false);
  const sessions = useUserSessionsQuery(userId || skipToken, { refetchOnMountOrArgChange: true });
  const [createSession, { isLoading: creating }] = useCreateSessionMutation();
  const [joinSession, { isLoading: joining }] = useJoinSessionMutation();
  const [removeParticipant, { isLoading: removing }] = useRemoveParticipantMutation();
  const [setParticipantRole] = useSetParticipantRoleMutation();

  // An invite link opens the join dialog with its session.
  useEffect(() => {
    if (invitedId) setJoinOpen(true);
  }, [invitedId]);

  useEffect(() => room.setMasterVolume(volume / 100), [room.setMasterVolume, volume]);

  // Entering a session shows it; leaving it (or being taken out) goes back to the list, which is read again.
  const sessionId = current?.sessionId ?? null;
  const shownSession = useRef<string | null>(null);
  const lastLeft = room.state.lastLeft;
  const refetchSessions = sessions.refetch;
  useEffect(() => {
    const before = shownSession.current;
    shownSession.current = sessionId;
    if (sessionId && sessionId !== before) setTab('live');
    if (!sessionId && before) {
      if (!lastLeft) setTab('sessions');
      if (userId) void refetchSessions();
    }
  }, [sessionId, lastLeft, userId, refetchSessions]);

  // Pointer positions go to the others while in a session (at most every 100 ms).
  const cursorSender = useMemo(() => new CursorSender({ send: (position) => live.send({ type: 'cursor_position', position }) }), [live]);
  useEffect(() => {
    if (!sessionId) cursorSender.stop();
    return () => cursorSender.stop();
  }, [sessionId, cursorSender]);
  const pageRef = useRef<HTMLDivElement>(null);
  const pointerMoved = (event: PointerEvent<HTMLDivElement>) => {
    if (!sessionId || !pageRef.current) return;
    const box = pageRef.current.getBoundingClientRect();
    cursorSender.moved(pageFraction(event.clientX - box.left, event.clientY - box.top, box.width, box.height));
  };

  const join = async (id: string, role: SessionRole) => {
    if (!connected) {
      notifyError('WebSocket connection is not available', 'Connection Error');
      return;
    }
    wakeAudio();
    if (current?.sessionId === id) {
      setJoinOpen(false);
      setTab('live');
      return;
    }
    try {
      await joinSession({ sessionId: id, userId, role }).unwrap();
      room.enter(id);
      setJoinOpen(false);
      if (invitedId) setSearchParams({}, { replace: true });
    } catch (error) {
      notifyError(failureDescription('Failed to join session', error));
    }
  };

  const create = async (input: CreateSessionInput) => {
    try {
      const session = await createSession({ ...input, hostUserId: userId }).unwrap();
      setCreateOpen(false);
      notify({ title: 'Session Created', description: 'Your collaborative session has been created successfully.', type: 'success' });
      // The host is in it from the start: straight into the live session when the connection is up.
      if (connected) {
        wakeAudio();
        room.enter(session.id);
      }
    } catch (error) {
      notifyError(failureDescription('Failed to create session', error));
    }
  };

  const leaveSession = async (id: string, ending: boolean) => {
    try {
      await removeParticipant({ sessionId: id, userId }).unwrap();
      if (current?.sessionId === id) room.leave();
      setTab('sessions');
      notify({
        title: 'Left Session',
        description: ending ? 'You have left the collaborative session. It has ended for everyone.' : 'You have left the collaborative session.',
        type: 'success',
      });
    } catch (error) {
      notifyError(failureDescription('Failed to leave session', error));
    }
  };

  const remove = async (person: Participant) => {
    if (!current) return;
    try {
      await removeParticipant({ sessionId: current.sessionId, userId: person.userId }).unwrap();
      notify({ title: 'Participant Removed', description: 'User has been removed from the session.', type: 'success' });
    } catch (error) {
      notifyError(failureDescription('Failed to remove participant', error));
    }
  };

  const changeRole = async (person: Participant, role: GuestRole) => {
    if (!current) return;
    try {
      await setParticipantRole({ sessionId: current.sessionId, userId: person.userId, role }).unwrap();
      notify({ title: 'Role Changed', description: `${participantName(person)} is now a ${role}.`, type: 'success' });
    } catch (error) {
      notifyError(failureDescription('Failed to change the role', error));
    }
  };

  const browse = () => setTab('sessions');

  return (
    <Box minH="100dvh" bg="bg" position="relative" ref={pageRef} onPointerMove={pointerMoved} data-testid="collaborate-page">
      <PageHeader>
        <Button asChild variant="ghost" size="sm">
          <RouterLink to="/app">Studio</RouterLink>
        </Button>
      </PageHeader>
      <Container as="main" maxW="6xl" py="8">
        <Stack gap="6">
          <HStack gap="3" wrap="wrap">
            <Heading as="h1" size="3xl">
              Collaborate
            </Heading>
            <Badge colorPalette={connected ? 'green' : 'red'} variant="solid" data-testid="connection-badge" data-connected={connected}>
              {connected ? 'Connected' : 'Disconnected'}
            </Badge>
          </HStack>
          {current && <SessionBar session={current} role={current.role} onLeave={() => void leaveSession(current.sessionId, current.role === 'host')} leaving={removing} />}
          <Tabs.Root value={tab} onValueChange={(event) => setTab(event.value as Tab)} lazyMount>
            <Tabs.List>
              <Tabs.Trigger value="sessions">Sessions</Tabs.Trigger>
              <Tabs.Trigger value="live" disabled={!current}>
                Live Session
              </Tabs.Trigger>
              <Tabs.Trigger value="audio" disabled={!current}>
                Audio Control
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="sessions">
              <SessionsTab
                selfUserId={userId}
                sessions={sessions.currentData}
                loading={sessions.isFetching}
                failed={sessions.isError}
                currentSessionId={sessionId}
                busy={joining || removing || room.entering !== null}
                onCreate={() => setCreateOpen(true)}
                onJoinDialog={() => setJoinOpen(true)}
                onJoin={(session: Session) => void join(session.id, session.hostUserId === userId ? 'host' : 'collaborator')}
                onEnd={(session: Session) => void leaveSession(session.id, true)}
              />
            </Tabs.Content>
            <Tabs.Content value="live">
              {current ? (
                <LiveSessionView session={current} room={room} selfUserId={userId} volume={volume} onVolume={setVolume} onRemove={(p) => void remove(p)} onSetRole={(p, r) => void changeRole(p, r)} />
              ) : (
                <NoActiveSession onBrowse={browse} />
              )}
            </Tabs.Content>
            <Tabs.Content value="audio">
              {current ? (
                <AudioControlTab
                  sessionId={current.sessionId}
                  role={current.role}
                  participantCount={current.participants.length}
                  maxParticipants={current.session.maxParticipants}
                  stems={room.stems}
                  mix={current.mix}
                  onStemChange={room.setStem}
                />
              ) : (
                <NoActiveSession onBrowse={browse} />
              )}
            </Tabs.Content>
          </Tabs.Root>
        </Stack>
      </Container>
      {current && <RemoteCursors cursors={current.cursors} />}
      <CreateSessionDialog open={createOpen} onClose={() => setCreateOpen(false)} creating={creating} onCreate={(input) => void create(input)} />
      <JoinSessionDialog
        open={joinOpen}
        onClose={() => setJoinOpen(false)}
        initialSessionId={invitedId}
        joining={joining || room.entering !== null}
        onJoin={(id, role) => void join(id, role)}
      />
    </Box>
  );
}
