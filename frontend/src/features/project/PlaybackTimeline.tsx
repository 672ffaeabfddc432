import { Box, Card, HStack, Text } from '@chakra-ui/react';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useAppSelector } from '../../app/hooks';
import { studioPlayer } from '../../audio/studioPlayer';
import { formatTime, progressPercent } from '../../lib/format';
import { seek } from '../transport/transportControls';
import { seekTargetForKey } from './seekKeys';

const BINS = 600;

/**
 * Timeline under the upload panel: the mix's waveform, current time and duration; click or drag to seek,
 * or focus it (Tab) and use the slider keys: arrows ±5 s, Page Up/Down ±30 s, Home/End.
 */
export function PlaybackTimeline() {
  const { position, status, file } = useAppSelector((s) => s.transport);
  const decodedVersion = useAppSelector((s) => s.project.decodedVersion);
  const partialSeconds = useAppSelector((s) => s.project.partialSeconds);
  const canvas = useRef<HTMLCanvasElement>(null);
  const dragging = useRef(false);
  const duration = file?.duration ?? 0;

  // Redrawn whenever the player has decoded stems (first seconds, then the whole song).
  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const peaks = studioPlayer.waveform(BINS);
    const { width, height } = element;
    context.clearRect(0, 0, width, height);
    context.fillStyle = '#a78bfa';
    const barWidth = width / BINS;
    for (let i = 0; i < BINS; i++) {
      const h = Math.max(1, peaks[i]! * height);
      context.fillRect(i * barWidth, (height - h) / 2, Math.max(1, barWidth - 0.5), h);
    }
  }, [decodedVersion]);

  const seekTo = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    seek(((event.clientX - box.left) / box.width) * duration);
  };

  const seekByKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = seekTargetForKey(event.key, position, duration);
    if (target === null) return;
    event.preventDefault();
    seek(target);
  };

  return (
    <Card.Root data-testid="timeline">
      <Card.Body gap="2">
        <HStack justify="space-between" fontSize="sm" fontFamily="mono">
          <Text data-testid="timeline-current">{formatTime(position)}</Text>
          <Text color="fg.muted" data-testid="playback-state">
            {status === 'playing' ? 'Playing' : status === 'paused' ? 'Paused' : 'Stopped'}
            {partialSeconds !== null ? ` · first ${partialSeconds} s ready, separating the rest` : ''}
          </Text>
          <Text data-testid="timeline-duration">{formatTime(duration)}</Text>
        </HStack>
        <Box
          position="relative"
          h="20"
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
          data-testid="seek-bar"
          onPointerDown={(event) => {
            dragging.current = true;
            event.currentTarget.setPointerCapture(event.pointerId);
            seekTo(event);
          }}
          onPointerMove={(event) => dragging.current && seekTo(event)}
          onPointerUp={() => (dragging.current = false)}
        >
          <canvas ref={canvas} width={1200} height={160} style={{ width: '100%', height: '100%' }} />
          <Box position="absolute" top="0" bottom="0" w="2px" bg="fg" style={{ left: `${progressPercent(position, duration)}%` }} />
        </Box>
      </Card.Body>
    </Card.Root>
  );
}
