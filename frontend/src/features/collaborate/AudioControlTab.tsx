import { Button, Card, Heading, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { SessionMix, SessionRole, Stem } from '@stemdeck/proto';
import { Copy, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { STEM_NAMES } from '../mastering/enhanceState';
import { ROLE_NAMES } from './participants';
import { notify } from './useSessionRoom';

/** While a slider moves, its own value shows (and is sent at most this often); then the session's again. */
const STEM_SEND_MS = 80;
const DRAFT_HOLD_MS = 1000;

const percent = (volume: number) => Math.round(volume * 100);

/** The link that opens this page's join dialog for a session. */
export const inviteLink = (origin: string, sessionId: string) => `${origin}/collaborate?session=${encodeURIComponent(sessionId)}`;

/** Copies text, with a toast either way. */
export async function copyText(text: string, copied: string, select?: () => void): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify({ title: 'Copied', description: copied, type: 'success' });
  } catch {
    select?.();
    notify({ title: 'Copy it yourself', description: 'It is selected: press Ctrl+C (⌘C on a Mac)', type: 'info' });
  }
}

/** One stem's level (0–100 %) and mute in the session's shared mix. */
function StemControl({ stem, mix, canMix, onChange }: { stem: Stem; mix: SessionMix; canMix: boolean; onChange: (change: { volume: number } | { muted: boolean }) => void }) {
  const shared = mix[stem.id] ?? { volume: 1, muted: false };
  const [draft, setDraft] = useState<{ volume: number; at: number } | null>(null);
  const sendTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<number | null>(null);
  const lastSentAt = useRef(0);
  useEffect(() => () => void (sendTimer.current && clearTimeout(sendTimer.current)), []);
  // The draft gives way to the session's value a moment after the last move.
  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(() => setDraft(null), DRAFT_HOLD_MS);
    return () => clearTimeout(timer);
  }, [draft]);

  const flush = () => {
    sendTimer.current = null;
    if (pending.current === null) return;
    lastSentAt.current = performance.now();
    onChange({ volume: pending.current });
    pending.current = null;
  };
  const move = (volume: number) => {
    setDraft({ volume, at: Date.now() });
    pending.current = volume;
    if (sendTimer.current) return;
    const wait = lastSentAt.current + STEM_SEND_MS - performance.now();
    if (wait <= 0) flush();
    else sendTimer.current = setTimeout(flush, wait);
  };

  const name = STEM_NAMES[stem.type];
  const shown = draft ? draft.volume : shared.volume;
  const id = `session-stem-${stem.type}`;
  return (
    <Stack gap="2" p="3" borderWidth="1px" rounded="md" data-testid={`session-stem-${stem.type}`} data-volume={shared.volume} data-muted={shared.muted}>
      <HStack justify="space-between">
        <label htmlFor={id}>
          <Text fontWeight="medium">{name}</Text>
        </label>
        <Text fontSize="sm" fontFamily="mono" data-testid={`session-stem-${stem.type}-percent`}>
          {percent(shown)}%
        </Text>
      </HStack>
      <HStack gap="3">
        <input
          id={id}
          type="range"
          min={0}
          max={100}
          step={1}
          value={percent(shown)}
          disabled={!canMix}
          aria-label={`${name} volume`}
          aria-valuetext={`${percent(shown)}%`}
          onChange={(event) => move(Number(event.target.value) / 100)}
          style={{ flex: 1, accentColor: 'var(--chakra-colors-purple-500)' }}
        />
        <Button
          size="sm"
          variant={shared.muted ? 'solid' : 'outline'}
          colorPalette={shared.muted ? 'red' : 'gray'}
          disabled={!canMix}
          aria-pressed={shared.muted}
          aria-label={shared.muted ? `Unmute ${name}` : `Mute ${name}`}
          onClick={() => onChange({ muted: !shared.muted })}
          data-testid={`session-stem-${stem.type}-mute`}
        >
          {shared.muted ? <VolumeX /> : <Volume2 />}
          {shared.muted ? 'Muted' : 'Mute'}
        </Button>
      </HStack>
    </Stack>
  );
}

/** "Audio Control": the shared mix of the session's stems, and the session's settings (id, invite link, role, count). */
export function AudioControlTab({
  sessionId,
  role,
  participantCount,
  maxParticipants,
  stems,
  mix,
  onStemChange,
}: {
  sessionId: string;
  role: SessionRole;
  participantCount: number;
  maxParticipants: number;
  stems: readonly Stem[] | undefined;
  mix: SessionMix;
  onStemChange: (stemId: string, change: { volume: number } | { muted: boolean }) => void;
}) {
  const canMix = role !== 'viewer';
  const link = inviteLink(window.location.origin, sessionId);
  const linkInput = useRef<HTMLInputElement>(null);
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
      <Card.Root data-testid="session-stems">
        <Card.Body>
          <Stack gap="3">
            <Heading as="h3" size="md">
              Collaborative stem control
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {canMix ? 'Changes here apply to everyone’s playback.' : 'Viewers see the mix; the host and collaborators change it.'}
            </Text>
            {!stems ? (
              <Text fontSize="sm" color="fg.muted">
                Loading the stems...
              </Text>
            ) : stems.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                This project has no stems yet.
              </Text>
            ) : (
              stems.map((stem) => <StemControl key={stem.id} stem={stem} mix={mix} canMix={canMix} onChange={(change) => onStemChange(stem.id, change)} />)
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
      <Card.Root data-testid="session-settings">
        <Card.Body>
          <Stack gap="4">
            <Heading as="h3" size="md">
              Session settings
            </Heading>
            <Stack gap="1">
              <Text fontSize="sm" color="fg.muted">
                Session ID
              </Text>
              <HStack gap="2" wrap="wrap">
                <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" data-testid="session-id">
                  {sessionId}
                </Text>
                <Button size="sm" variant="outline" onClick={() => void copyText(sessionId, 'Session ID copied to clipboard')} data-testid="copy-session-id">
                  <Copy /> Copy Session ID
                </Button>
              </HStack>
            </Stack>
            <Stack gap="1">
              <label htmlFor="session-invite-link">
                <Text fontSize="sm" color="fg.muted">
                  Invite link
                </Text>
              </label>
              <HStack gap="2">
                <Input id="session-invite-link" ref={linkInput} readOnly value={link} fontFamily="mono" fontSize="sm" onFocus={(event) => event.currentTarget.select()} data-testid="invite-link" />
                <Button size="sm" variant="outline" onClick={() => void copyText(link, 'Invite link copied to clipboard', () => linkInput.current?.select())} data-testid="copy-invite-link">
                  <Copy /> Copy Invite Link
                </Button>
              </HStack>
            </Stack>
            <HStack gap="8">
              <Stack gap="0">
                <Text fontSize="sm" color="fg.muted">
                  Your role
                </Text>
                <Text fontWeight="medium" data-testid="session-role">
                  {ROLE_NAMES[role]}
                </Text>
              </Stack>
              <Stack gap="0">
                <Text fontSize="sm" color="fg.muted">
                  Participants
                </Text>
                <Text fontWeight="medium" data-testid="session-participant-count">
                  {participantCount} / {maxParticipants}
                </Text>
              </Stack>
            </HStack>
          </Stack>
        </Card.Body>
      </Card.Root>
    </SimpleGrid>
  );
}
