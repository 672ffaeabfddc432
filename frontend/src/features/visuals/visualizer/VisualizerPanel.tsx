import { Box, Button, Card, HStack, Stack, Text, Wrap } from '@chakra-ui/react';
import { Expand, ExternalLink, Minimize } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { openOutputWindow } from '../output/outputRoute';
import { webglUnavailableReason } from './renderers/glRenderer';
import { liveVisualFeed, type FeedStatus } from './liveVisualFeed';
import { MODE_LABELS, VISUAL_MODES, WEBGL_MODES, type VisualMode } from './visualFrame';
import { VisualizerView } from './visualizerView';

const SOURCE_TEXT: Record<FeedStatus['source'], string> = {
  grid: 'on the playing track’s beat grid',
  live: 'detected live',
  fallback: 'listening for a beat',
};

/** Follows document.fullscreenElement: whether `element` is the one shown full screen. */
function useFullscreen(element: React.RefObject<HTMLElement | null>) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const update = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === element.current);
    document.addEventListener('fullscreenchange', update);
    update();
    return () => document.removeEventListener('fullscreenchange', update);
  }, [element]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void element.current?.requestFullscreen().catch(() => undefined);
  };
  return { on, toggle, supported: typeof document !== 'undefined' && document.fullscreenEnabled };
}

/**
 * The live visualizer: the studio's master bus drawn in the chosen mode, flashing on the beat, with the tempo
 * shown. It draws only while it is on screen (and stops when it leaves the page); the output window mirrors it.
 */
export function VisualizerPanel() {
  const panelRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<VisualizerView | null>(null);
  const [mode, setMode] = useState<VisualMode>(liveVisualFeed.mode);
  // Without WebGL the 3D modes are off for good (said in plain words); a lost context can be retried.
  const [noWebgl] = useState(webglUnavailableReason);
  const [problems, setProblems] = useState<Partial<Record<VisualMode, string>>>({});
  const status = useSyncExternalStore(liveVisualFeed.subscribeStatus, liveVisualFeed.getStatus);
  const fullscreen = useFullscreen(panelRef);
  const startMode = useRef(mode);

  useEffect(() => {
    const stage = stageRef.current!;
    const view = new VisualizerView(stage, {
      onProblem: (problemMode, reason) =>
        setProblems((current) => {
          if ((current[problemMode] ?? null) === reason) return current;
          const next = { ...current };
          if (reason) next[problemMode] = reason;
          else delete next[problemMode];
          return next;
        }),
    });
    viewRef.current = view;
    view.setMode(startMode.current);
    // Draws only while on screen: in view (scrolling, another section) and the tab visible.
    let inView = false;
    let stopWatching: (() => void) | null = null;
    const update = () => {
      const visible = inView && document.visibilityState === 'visible';
      if (visible && !stopWatching) stopWatching = liveVisualFeed.watch((frame) => view.draw(frame));
      if (!visible && stopWatching) {
        stopWatching();
        stopWatching = null;
      }
      stage.dataset.drawing = String(visible);
    };
    const observer = new IntersectionObserver((entries) => {
      inView = entries.some((entry) => entry.isIntersecting);
      update();
    });
    observer.observe(stage);
    document.addEventListener('visibilitychange', update);
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', update);
      stopWatching?.();
      view.dispose();
      viewRef.current = null;
    };
  }, []);

  const choose = (next: VisualMode) => {
    setMode(next);
    liveVisualFeed.mode = next;
    viewRef.current?.setMode(next);
  };
  const problem = problems[mode] ?? (WEBGL_MODES.has(mode) ? noWebgl : null);

  return (
    <Card.Root data-testid="visualizer-panel">
      <Card.Header>
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Card.Title>Visualizer</Card.Title>
          <Text fontSize="lg" fontWeight="semibold" data-testid="visualizer-bpm" data-bpm={status.bpm} data-source={status.source}>
            {status.bpm} BPM{' '}
            <Text as="span" fontSize="sm" fontWeight="normal" color="fg.muted">
              {SOURCE_TEXT[status.source]}
            </Text>
          </Text>
        </HStack>
        <Card.Description>Everything the studio plays, moving with the beat.</Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          <Wrap gap="2" role="group" aria-label="Visualizer mode">
            {VISUAL_MODES.map((option) => (
              <Button
                key={option}
                size="sm"
                variant={mode === option ? 'solid' : 'outline'}
                colorPalette="purple"
                aria-pressed={mode === option}
                disabled={WEBGL_MODES.has(option) && noWebgl !== null}
                title={WEBGL_MODES.has(option) ? (noWebgl ?? undefined) : undefined}
                onClick={() => choose(option)}
              >
                {MODE_LABELS[option]}
              </Button>
            ))}
          </Wrap>
          {noWebgl && (
            <Text fontSize="sm" color="fg.muted" data-testid="visualizer-webgl-off">
              {MODE_LABELS.bars3d} and {MODE_LABELS.milkdrop} are off: {noWebgl}
            </Text>
          )}
          <Box
            ref={panelRef}
            position="relative"
            bg="black"
            rounded={fullscreen.on ? undefined : 'md'}
            overflow="hidden"
            h={fullscreen.on ? '100vh' : { base: '240px', md: '380px' }}
            w="full"
            data-testid="visualizer-screen"
          >
            <Box ref={stageRef} position="absolute" inset="0" data-testid="visualizer-stage" />
            {problem && (
              <Box position="absolute" inset="0" display="flex" alignItems="center" justifyContent="center" p="6" textAlign="center">
                <Text color="white" data-testid="visualizer-problem">
                  {MODE_LABELS[mode]}: {problem}
                </Text>
              </Box>
            )}
            <HStack position="absolute" top="2" right="2" gap="2">
              {fullscreen.supported && (
                <Button size="xs" variant="subtle" colorPalette="gray" onClick={fullscreen.toggle} data-testid="visualizer-fullscreen">
                  {fullscreen.on ? <Minimize /> : <Expand />} {fullscreen.on ? 'Exit fullscreen' : 'Fullscreen'}
                </Button>
              )}
            </HStack>
          </Box>
          <HStack justify="space-between" wrap="wrap" gap="2">
            <Text fontSize="sm" color="fg.muted">
              For a projector or a stream: open the output window, move it to that screen and make it full screen.
            </Text>
            <Button size="sm" variant="outline" onClick={openOutputWindow} data-testid="open-output-window">
              <ExternalLink /> Open output window
            </Button>
          </HStack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
