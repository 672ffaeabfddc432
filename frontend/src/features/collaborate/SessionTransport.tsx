import { Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Pause, Play } from 'lucide-react';
import { OutputLevel } from './OutputLevel';

/**
 * The shared transport: play and pause start and stop the session's song for everyone at the same position;
 * the master volume is this listener's own. `startedWallMs` (when playback here last started, epoch ms) is
 * on the card for measuring how closely participants start together.
 */
export function SessionTransport({
  playing,
  canControl,
  stemsReady,
  hasStems,
  volume,
  onVolume,
  onPlay,
  onPause,
  startedWallMs,
}: {
  playing: boolean;
  canControl: boolean;
  stemsReady: boolean;
  hasStems: boolean;
  volume: number;
  onVolume: (volume: number) => void;
  onPlay: () => void;
  onPause: () => void;
  startedWallMs: number | null;
}) {
  return (
    <Card.Root data-testid="session-transport" data-playing={playing} data-started-wall-ms={startedWallMs ?? ''} data-stems-ready={stemsReady}>
      <Card.Body>
        <Stack gap="3">
          <Heading as="h3" size="md">
            Playback
          </Heading>
          <HStack gap="3" wrap="wrap">
            <Button colorPalette="purple" onClick={onPlay} disabled={!canControl || !stemsReady || playing} data-testid="session-play">
              <Play /> Play
            </Button>
            <Button variant="outline" onClick={onPause} disabled={!canControl || !playing} data-testid="session-pause">
              <Pause /> Pause
            </Button>
            <Text fontSize="sm" color="fg.muted" data-testid="session-transport-status">
              {!hasStems
                ? 'This project has no stems to play yet.'
                : !stemsReady
                  ? 'Loading the song...'
                  : playing
                    ? 'Playing for everyone in the session'
                    : 'Paused'}
            </Text>
          </HStack>
          <HStack maxW="md">
            <label htmlFor="session-master-volume">
              <Text fontSize="sm" whiteSpace="nowrap">
                Master volume
              </Text>
            </label>
            <input
              id="session-master-volume"
              type="range"
              min={0}
              max={100}
              step={1}
              value={volume}
              onChange={(event) => onVolume(Number(event.target.value))}
              style={{ flex: 1, accentColor: 'var(--chakra-colors-purple-500)' }}
            />
            <Text fontSize="sm" fontFamily="mono" w="10">
              {volume}
            </Text>
          </HStack>
          <OutputLevel />
          {!canControl && (
            <Text fontSize="sm" color="fg.muted">
              Viewers listen along; the host and collaborators start and pause the song.
            </Text>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
