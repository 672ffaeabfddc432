import { Box, Button, Card, Container, Heading, HStack, Link, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { CircleAlert, Pause, Play } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { ensureAudioContext, onAudioContext } from '../../audio/audioContext';
import { StemPlayer, type PlaybackStatus, type PlayerStem } from '../../audio/stemPlayer';
import { formatTime, progressPercent } from '../../lib/format';
import { Brand } from '../../ui/Brand';
import { LoadingScreen } from '../../ui/LoadingScreen';
import { toaster } from '../../ui/toaster';
import { STEM_NAMES } from '../mastering/enhanceState';
import { seekTargetForKey } from '../project/seekKeys';
import { AnalysisView } from '../export/AnalysisView';
import { useSharedProjectQuery, type SharedProject } from './shareApi';

/** What a revoked, expired or never-issued link shows (the server's words for it too). */
export const LINK_GONE = 'This link is no longer available';

const BINS = 600;
/** The stems' meters read the player's analysers this often while it plays. */
const LEVEL_MS = 100;

/** A stem's RMS on the mixer's meter scale: −60…0 dBFS across the bar. */
const meterPercent = (rms: number): number => (rms > 0 ? Math.min(100, Math.max(0, ((20 * Math.log10(rms) + 60) / 60) * 100)) : 0);

/** `/s/:token`: a shared project's read-only player, open to everyone (no sign-in, outside the studio). */
export function SharedProjectPage({ token }: { token: string }) {
  const { currentData: shared, error, isLoading, isFetching, refetch } = useSharedProjectQuery(token, { refetchOnMountOrArgChange: true });
  if (isLoading || (isFetching && !shared && !error)) return <LoadingScreen />;
  if (!shared) {
    const status = (error as { status?: unknown } | undefined)?.status;
    return status === 404 || status === 410 ? <LinkGone /> : <LinkUnreadable onRetry={() => void refetch()} />;
  }
  return <SharedPlayer shared={shared} />;
}

function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <Box as="main" minH="100dvh" bg="bg" py={{ base: '4', md: '10' }}>
      <Container maxW="4xl">
        <Stack gap="6">
          <Brand withTagline />
          {children}
        </Stack>
      </Container>
    </Box>
  );
}

function LinkGone() {
  return (
    <PublicFrame>
      <Card.Root data-testid="share-gone">
        <Card.Body>
          <HStack gap="2" mb="3">
            <CircleAlert color="var(--chakra-colors-red-500)" />
            <Heading as="h1" size="xl">
              {LINK_GONE}
            </Heading>
          </HStack>
          <Text color="fg.muted">The person who shared it may have revoked it, or it has expired. Ask them for a new link.</Text>
        </Card.Body>
      </Card.Root>
    </PublicFrame>
  );
}

function LinkUnreadable({ onRetry }: { onRetry: () => void }) {
  return (
    <PublicFrame>
      <Card.Root data-testid="share-unreadable">
        <Card.Body gap="3">
          <Heading as="h1" size="xl">
            The shared project could not be opened
          </Heading>
          <Text color="fg.muted">Something went wrong on our side. Please try again in a moment.</Text>
          <Button alignSelf="flex-start" variant="outline" onClick={onRetry}>
            Try again
          </Button>
        </Card.Body>
      </Card.Root>
    </PublicFrame>
  );
}

/** The stems as the player takes them: their saved volume, mute and solo (the mix the owner set). */
const playerStems = (shared: SharedProject): PlayerStem[] => shared.stems.map(({ id, type, url, volume, muted, soloed }) => ({ id, type, url, volume, muted, soloed }));

function SharedPlayer({ shared }: { shared: SharedProject }) {
  // Its own player (not the studio's): the stems go straight to the speakers with the owner's mix.
  const player = useMemo(() => new StemPlayer({ context: ensureAudioContext }), []);
  const [loaded, setLoaded] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [position, setPosition] = useState(0);
  const [status, setStatus] = useState<PlaybackStatus>('stopped');
  const [contextState, setContextState] = useState<AudioContextState | 'none'>('none');
  const [levels, setLevels] = useState<Record<string, number>>({});
  const canvas = useRef<HTMLCanvasElement>(null);
  const dragging = useRef(false);
  const duration = shared.duration;

  useEffect(() => {
    const stopListening = player.onPosition((seconds, playback) => {
      setPosition(seconds);
      setStatus(playback);
    });
    let watched: AudioContext | null = null;
    const showState = () => watched && setContextState(watched.state);
    const stopWatching = onAudioContext((context) => {
      watched = context;
      showState();
      context.addEventListener('statechange', showState);
    });
    return () => {
      stopListening();
      stopWatching();
      watched?.removeEventListener('statechange', showState);
      player.stop();
      player.unload();
    };
  }, [player]);

  useEffect(() => {
    player.duration = shared.duration;
    if (shared.bpm) player.bpm = shared.bpm;
    setLoaded('loading');
    player.load(playerStems(shared)).then(
      (swapped) => swapped && setLoaded('ready'),
      () => setLoaded('failed'),
    );
  }, [player, shared]);

  // Each stem's level after its gain (a muted stem reads 0) while it plays.
  useEffect(() => {
    if (status !== 'playing') return setLevels({});
    const timer = setInterval(() => setLevels(player.levels()), LEVEL_MS);
    return () => clearInterval(timer);
  }, [player, status]);

  // The mix's waveform once the stems are decoded.
  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context || loaded !== 'ready') return;
    const peaks = player.waveform(BINS);
    const { width, height } = element;
    context.clearRect(0, 0, width, height);
    context.fillStyle = '#a78bfa';
    const barWidth = width / BINS;
    for (let i = 0; i < BINS; i++) {
      const h = Math.max(1, peaks[i]! * height);
      context.fillRect(i * barWidth, (height - h) / 2, Math.max(1, barWidth - 0.5), h);
    }
  }, [player, loaded]);

  const toggle = async () => {
    if (player.playing) return player.pause();
    try {
      await player.play();
    } catch (error) {
      toaster.create({ title: 'Playback failed', description: (error as Error).message, type: 'error' });
    }
  };

  const seekTo = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    player.seek(((event.clientX - box.left) / box.width) * duration);
  };
  const seekByKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = seekTargetForKey(event.key, position, duration);
    if (target === null) return;
    event.preventDefault();
    player.seek(target);
  };

  const anySoloed = shared.stems.some((stem) => stem.soloed);
  return (
    <PublicFrame>
      <Stack gap="6" data-testid="shared-project">
        <Box>
          <Text color="fg.muted" fontSize="sm">
            Shared project
          </Text>
          <Heading as="h1" size="3xl" data-testid="shared-title" wordBreak="break-word">
            {shared.name}
          </Heading>
          <Text color="fg.muted" data-testid="shared-summary">
            {[formatTime(duration), shared.bpm ? `${Math.round(shared.bpm)} BPM` : null, shared.key].filter(Boolean).join(' · ')}
          </Text>
        </Box>
        <Card.Root>
          <Card.Body gap="3">
            <HStack justify="space-between" wrap="wrap" gap="3">
              <Button
                colorPalette="purple"
                onClick={() => void toggle()}
                disabled={loaded !== 'ready'}
                aria-label={status === 'playing' ? 'Pause' : 'Play'}
                data-testid="shared-play"
              >
                {status === 'playing' ? <Pause /> : <Play />}
                {status === 'playing' ? 'Pause' : 'Play'}
              </Button>
              {loaded === 'loading' && (
                <HStack gap="2" color="fg.muted" fontSize="sm">
                  <Spinner size="sm" /> <Text>Loading the stems…</Text>
                </HStack>
              )}
              {loaded === 'failed' && (
                <Text color="fg.error" fontSize="sm" data-testid="shared-load-failed">
                  The audio could not be loaded. Please reload the page.
                </Text>
              )}
              <Text fontFamily="mono" fontSize="sm" data-testid="shared-position" data-seconds={position.toFixed(2)} data-status={status} data-audio={contextState}>
                {formatTime(position)} / {formatTime(duration)}
              </Text>
            </HStack>
            <Box
              position="relative"
              h="24"
              cursor="pointer"
              role="slider"
              tabIndex={0}
              aria-label="Seek"
              aria-valuemin={0}
              aria-valuemax={Math.round(duration)}
              aria-valuenow={Math.round(position)}
              aria-valuetext={`${formatTime(position)} of ${formatTime(duration)}`}
              rounded="sm"
              _focusVisible={{ outline: '2px solid', outlineColor: 'purple.400', outlineOffset: '2px' }}
              onKeyDown={seekByKey}
              onPointerDown={(event) => {
                dragging.current = true;
                event.currentTarget.setPointerCapture(event.pointerId);
                seekTo(event);
              }}
              onPointerMove={(event) => dragging.current && seekTo(event)}
              onPointerUp={() => (dragging.current = false)}
              data-testid="shared-waveform"
              data-drawn={loaded === 'ready' ? 'true' : 'false'}
            >
              <canvas ref={canvas} width={1200} height={200} style={{ width: '100%', height: '100%' }} />
              <Box position="absolute" top="0" bottom="0" w="2px" bg="fg" style={{ left: `${progressPercent(position, duration)}%` }} />
            </Box>
            <SimpleGrid columns={{ base: 2, md: 4 }} gap="2" data-testid="shared-stems">
              {shared.stems.map((stem) => (
                <Stack key={stem.id} gap="1" p="2" borderWidth="1px" rounded="md" data-testid={`shared-stem-${stem.type}`} data-level={(levels[stem.id] ?? 0).toFixed(4)}>
                  <Text fontSize="sm" fontWeight="medium">
                    {STEM_NAMES[stem.type]}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {stem.muted ? 'Muted' : anySoloed && !stem.soloed ? 'Not in the mix (another stem is soloed)' : `${stem.volume > 0 ? '+' : ''}${stem.volume.toFixed(1)} dB${stem.soloed ? ' · Solo' : ''}`}
                  </Text>
                  <Box h="1.5" bg="bg.muted" rounded="full" overflow="hidden" aria-hidden>
                    <Box h="full" bg="green.500" style={{ width: `${meterPercent(levels[stem.id] ?? 0)}%`, transition: 'width 90ms linear' }} />
                  </Box>
                </Stack>
              ))}
            </SimpleGrid>
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Body>
            <AnalysisView analysis={shared.analysis} note={shared.analysis ? null : 'This project has no analysis.'} />
          </Card.Body>
        </Card.Root>
        <Text fontSize="sm" color="fg.muted">
          Made with Stemdeck. <Link href="/">Make your own</Link>
        </Text>
      </Stack>
    </PublicFrame>
  );
}
