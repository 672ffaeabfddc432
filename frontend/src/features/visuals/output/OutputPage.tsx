import { Box, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { VisualizerView } from '../visualizer/visualizerView';
import { decodeFrame, VISUALS_CHANNEL, type StreamedFrame } from './frameCodec';
import { outputSocketUrl } from './outputLink';
import { connectOutputLink } from './outputLinkSocket';
import { announceOutputWindow } from './outputPresence';

/** No frame for this long: the studio is not streaming (closed, or its visualizer not open). */
const WAITING_AFTER_MS = 2000;
/** The "double-click" hint shows this long after the page opens or the pointer moves. */
const HINT_MS = 3000;

/**
 * The browser output window (/output): the studio's visualizer alone on black, at this window's size, for a
 * projector (move the window there, double-click for full screen) or a screen capture. It has no audio of its
 * own: the studio tab of this browser streams its frames (mode, analyser bytes, beat pulses) on a
 * BroadcastChannel, and this page draws the newest one each display frame. Nothing comes from the server, so
 * it needs no sign-in; it tells the studio it is open (announceOutputWindow) so the sync panel shows Live.
 * Opened from an output link (/output?key=…, e.g. an OBS Browser Source, which is another browser), the
 * frames come instead from the gateway's receive-only output socket for that key, reopened with back-off;
 * a key no studio has registered shows the gateway's plain reason.
 */
export function OutputPage() {
  const stageRef = useRef<HTMLDivElement>(null);
  const [waiting, setWaiting] = useState(true);
  const [hint, setHint] = useState(true);
  const [inactiveReason, setInactiveReason] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'Stemdeck output';
    const view = new VisualizerView(stageRef.current!);
    let latest: StreamedFrame | null = null;
    let drawn = -1;
    let framesDrawn = 0;
    let lastFrameAt = -Infinity;
    let wasWaiting = true;
    const receive = (data: unknown) => {
      const streamed = decodeFrame(data, performance.now());
      if (streamed) latest = streamed;
    };
    const key = new URLSearchParams(window.location.search).get('key');
    const channel = key || typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(VISUALS_CHANNEL);
    if (channel) channel.onmessage = (event) => receive(event.data);
    const stopLink = key
      ? connectOutputLink({
          url: outputSocketUrl(window.location, key),
          onFrame: receive,
          onState: (link) => setInactiveReason(link.state === 'inactive' ? link.reason || 'This output link is not active' : null),
        })
      : () => undefined;
    let frame = 0;
    const draw = () => {
      const now = performance.now();
      if (latest && latest.sequence !== drawn) {
        drawn = latest.sequence;
        lastFrameAt = now;
        // The frames drawn so far, for a look from outside (the e2e test tells a frozen stream from a still picture).
        stageRef.current!.dataset.frames = String(++framesDrawn);
        view.setMode(latest.mode);
        view.draw(latest.frame);
      }
      const isWaiting = now - lastFrameAt > WAITING_AFTER_MS;
      if (isWaiting !== wasWaiting) setWaiting((wasWaiting = isWaiting));
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    // randomUUID exists only on https and localhost; a studio reached over the LAN by plain http has neither.
    const windowId = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const goodbye = key ? () => undefined : announceOutputWindow(windowId);
    window.addEventListener('pagehide', goodbye);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pagehide', goodbye);
      goodbye();
      stopLink();
      channel?.close();
      view.dispose();
    };
  }, []);

  useEffect(() => {
    if (!hint) return;
    const timer = setTimeout(() => setHint(false), HINT_MS);
    return () => clearTimeout(timer);
  }, [hint]);

  const linked = new URLSearchParams(window.location.search).has('key');

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen().catch(() => undefined);
  };

  return (
    <Box
      position="fixed"
      inset="0"
      bg="black"
      cursor={hint ? 'default' : 'none'}
      onDoubleClick={toggleFullscreen}
      onPointerMove={() => setHint(true)}
      data-testid="output-page"
      data-waiting={waiting}
    >
      <Box ref={stageRef} position="absolute" inset="0" data-testid="visualizer-stage" />
      {waiting && (
        <Stack position="absolute" inset="0" align="center" justify="center" gap="2" p="6" textAlign="center" data-testid="output-waiting">
          {inactiveReason ? (
            <Text color="white" fontSize="xl" data-testid="output-inactive">
              {inactiveReason}
            </Text>
          ) : (
            <>
              <Text color="white" fontSize="xl">
                Waiting for the studio’s visualizer
              </Text>
              <Text color="gray.300">
                {linked ? 'Keep the studio’s Video & Visuals open and play something.' : 'Open Video & Visuals in the studio, in this browser, and play something.'}
              </Text>
            </>
          )}
        </Stack>
      )}
      {hint && !waiting && (
        <Text position="absolute" bottom="4" left="0" right="0" textAlign="center" color="gray.300" fontSize="sm" pointerEvents="none">
          Double-click for full screen
        </Text>
      )}
    </Box>
  );
}
