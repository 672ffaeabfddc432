import { Badge, Box, Button, Card, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState, type ReactNode } from 'react';
import { controlOutputs, OSC_LOG_SIZE, type ControlOutputs, type SentOscMessage } from '../../../instruments/controlOutputs';
import { DEFAULT_RESOLUME_TARGET, parseTarget, type OscBridgeClient, type OscBridgeStatus } from '../../../instruments/oscBridgeClient';
import { OscBridgeHelpLink, OscBridgeStatusLine } from '../../pads/OscBridgeStatusLine';
import { watchOutputWindows } from '../output/outputPresence';
import { argumentsText, clockTime, ROUTE_NAMES } from './oscMessageText';
import { openOutputWindow } from '../output/outputRoute';
import { outputLinkAddress, remoteOutputs } from '../output/outputLink';
import { useLiveChannel } from '../../live/useLiveConnection';

/** The message list redraws at most this often, however fast messages go out. */
export const LIST_REFRESH_MS = 100;
/** Where this browser remembers the Resolume target typed last. */
const RESOLUME_TARGET_KEY = 'stemdeck.resolumeTarget';

const BADGES: Record<OscBridgeStatus['state'], { text: string; palette: string }> = {
  off: { text: 'Off', palette: 'gray' },
  connecting: { text: 'Looking', palette: 'yellow' },
  connected: { text: 'Connected', palette: 'green' },
  'not-running': { text: 'Bridge not running', palette: 'orange' },
  error: { text: 'Error', palette: 'red' },
};

function readResolumeTarget(): string {
  try {
    return localStorage.getItem(RESOLUME_TARGET_KEY) ?? DEFAULT_RESOLUME_TARGET;
  } catch {
    return DEFAULT_RESOLUME_TARGET;
  }
}

function storeResolumeTarget(target: string): void {
  try {
    localStorage.setItem(RESOLUME_TARGET_KEY, target);
  } catch {
    // private mode without storage: this page only
  }
}

function useBridgeStatus(client: OscBridgeClient): OscBridgeStatus {
  const [status, setStatus] = useState(client.status);
  useEffect(() => client.onStatus(setStatus), [client]);
  return status;
}

/** The latest OSC messages sent, newest first, re-read at most every LIST_REFRESH_MS. */
function useRecentOsc(outputs: ControlOutputs): SentOscMessage[] {
  const [messages, setMessages] = useState(() => outputs.recentOsc);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = outputs.onOscSent(() => {
      timer ??= setTimeout(() => {
        timer = null;
        setMessages(outputs.recentOsc);
      }, LIST_REFRESH_MS);
    });
    setMessages(outputs.recentOsc);
    return () => {
      off();
      if (timer !== null) clearTimeout(timer);
    };
  }, [outputs]);
  return messages;
}

function OutputCard({ title, badge, testId, children }: { title: string; badge: { text: string; palette: string }; testId: string; children: ReactNode }) {
  return (
    <Box borderWidth="1px" rounded="md" p="3" data-testid={testId}>
      <Stack gap="2">
        <HStack justify="space-between">
          <Text fontWeight="medium">{title}</Text>
          <Badge colorPalette={badge.palette} data-testid={`${testId}-badge`}>
            {badge.text}
          </Badge>
        </HStack>
        {children}
      </Stack>
    </Box>
  );
}

function TouchDesignerCard({ client, status }: { client: OscBridgeClient; status: OscBridgeStatus }) {
  return (
    <OutputCard title="TouchDesigner" badge={BADGES[status.state]} testId="touchdesigner-output">
      <Text fontSize="xs" color="fg.muted">
        The studio's OSC messages (beats, transport, stem levels, pads) through the Stemdeck OSC bridge, to TouchDesigner's OSC In or
        any OSC receiver; change where they go under OSC out in Create Music.
      </Text>
      <OscBridgeStatusLine bridge={status} osc={client} testId="touchdesigner-status" />
      {status.state === 'connected' && <OscBridgeHelpLink />}
    </OutputCard>
  );
}

const RESOLUME_TEXT: Record<OscBridgeStatus['state'], string> = {
  off: 'not connected',
  connecting: 'looking for the OSC bridge…',
  connected: 'connected',
  'not-running': 'the OSC bridge is not running',
  error: 'error',
};

function ResolumeCard({ client, status }: { client: OscBridgeClient; status: OscBridgeStatus }) {
  const [target, setTarget] = useState(readResolumeTarget);
  const [targetError, setTargetError] = useState<string | null>(null);
  const on = status.state !== 'off';

  const connect = () => {
    const parsed = parseTarget(target);
    if ('error' in parsed) return setTargetError(parsed.error);
    setTargetError(null);
    storeResolumeTarget(`${parsed.host}:${parsed.port}`);
    client.setTarget(parsed);
    client.setEnabled(true);
  };

  return (
    <OutputCard title="Resolume" badge={on ? BADGES[status.state] : { text: 'Disconnected', palette: 'gray' }} testId="resolume-output">
      <Text fontSize="xs" color="fg.muted">
        The tempo to Resolume's tempo controller, and a resync on play and on every downbeat, through the Stemdeck OSC bridge. Turn on
        OSC input in Resolume's preferences (port 7000 unless changed).
      </Text>
      <HStack>
        <Input
          size="sm"
          aria-label="Resolume OSC input"
          value={target}
          disabled={on}
          onChange={(event) => setTarget(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && !on && connect()}
        />
        <Button size="sm" variant={on ? 'outline' : 'solid'} colorPalette="purple" data-testid="resolume-toggle" onClick={() => (on ? client.setEnabled(false) : connect())}>
          {on ? 'Disconnect' : 'Connect'}
        </Button>
      </HStack>
      {targetError && (
        <Text fontSize="xs" color="red.400">
          {targetError}
        </Text>
      )}
      <Text fontSize="xs" data-testid="resolume-status" data-state={status.state}>
        Resolume: {RESOLUME_TEXT[status.state]}
        {status.target ? ` → ${status.target}` : ''}
        {status.message ? `: ${status.message}` : ''}
      </Text>
      {(status.state === 'not-running' || status.state === 'error') && (
        <HStack gap="3">
          <Button size="xs" variant="outline" onClick={() => client.lookAgain()}>
            Look again
          </Button>
          <OscBridgeHelpLink />
        </HStack>
      )}
    </OutputCard>
  );
}

function outputStatusText(windows: number, links: number): string {
  if (windows === 0 && links === 0) return 'Standby: no output window open';
  const parts = [];
  if (windows > 0) parts.push(`${windows} output window${windows === 1 ? '' : 's'} open`);
  if (links > 0) parts.push(`${links} OBS source${links === 1 ? '' : 's'} or other browser${links === 1 ? '' : 's'}`);
  return `Live: ${parts.join(' · ')}`;
}

/** The output link (for OBS or another computer): registered on the studio's live connection while it is open. */
function useOutputLink(): { address: string; links: number } {
  const live = useLiveChannel();
  const outputs = remoteOutputs();
  const [links, setLinks] = useState(outputs.count);
  useEffect(() => {
    if (live) outputs.attach(live);
    return outputs.watch(setLinks);
  }, [live, outputs]);
  return { address: outputLinkAddress(window.location.origin, outputs.key), links };
}

function BrowserOutputCard({ watchWindows }: { watchWindows: typeof watchOutputWindows }) {
  const [windows, setWindows] = useState(0);
  useEffect(() => watchWindows(setWindows), [watchWindows]);
  const { address, links } = useOutputLink();
  const [copied, setCopied] = useState(false);
  const live = windows > 0 || links > 0;
  const copy = () => {
    void navigator.clipboard
      ?.writeText(address)
      .then(() => setCopied(true))
      .catch(() => setCopied(false));
  };
  return (
    <OutputCard title="Browser output" badge={live ? { text: 'Live', palette: 'green' } : { text: 'Standby', palette: 'gray' }} testId="browser-output">
      <Text fontSize="xs" data-testid="browser-output-status" data-state={live ? 'live' : 'standby'} data-links={links}>
        {outputStatusText(windows, links)}
      </Text>
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Text fontSize="xs" color="fg.muted">
          The visualizer full screen: put the window on a projector, or capture that window in OBS (Window Capture).
        </Text>
        <Button size="sm" variant="outline" onClick={openOutputWindow}>
          Open output window
        </Button>
      </HStack>
      <Stack gap="1">
        <Text fontSize="xs" fontWeight="medium">
          Link for OBS
        </Text>
        <Text fontSize="xs" color="fg.muted">
          Add a Browser Source in OBS (or open it on another computer) with this address. It shows this studio’s
          visualizer while this page is open; anyone with the link can watch it, so share it only with your own setup.
        </Text>
        <HStack gap="2">
          <Input size="xs" readOnly value={address} aria-label="Output link address" data-testid="output-link" onFocus={(event) => event.currentTarget.select()} />
          <Button size="xs" variant="outline" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </HStack>
      </Stack>
    </OutputCard>
  );
}

function emptyListText(general: OscBridgeStatus, resolume: OscBridgeStatus): string {
  const states = [general.state, resolume.state];
  if (states.includes('connected')) return 'Nothing has been sent yet: nothing is playing. Play a song, the drum machine or a demo song, and its beats appear here.';
  if (states.every((state) => state === 'off')) return 'Nothing has been sent yet: OSC output is off and Resolume is not connected.';
  return 'Nothing has been sent yet: the OSC bridge is not connected.';
}

function OscMessageList({ outputs, general, resolume }: { outputs: ControlOutputs; general: OscBridgeStatus; resolume: OscBridgeStatus }) {
  const messages = useRecentOsc(outputs);
  return (
    <Stack gap="2">
      <HStack justify="space-between">
        <Text fontWeight="medium">OSC messages sent</Text>
        <Text fontSize="xs" color="fg.muted">
          latest {OSC_LOG_SIZE}, newest first
        </Text>
      </HStack>
      {messages.length === 0 ? (
        <Text fontSize="sm" color="fg.muted" data-testid="osc-messages-empty">
          {emptyListText(general, resolume)}
        </Text>
      ) : (
        <Stack as="ol" gap="0" borderWidth="1px" rounded="md" fontFamily="mono" fontSize="xs" data-testid="osc-message-list" aria-label="OSC messages sent">
          {messages.map((message) => (
            <Stack
              as="li"
              key={message.seq}
              gap="0"
              px="2"
              py="1"
              borderBottomWidth="1px"
              _last={{ borderBottomWidth: 0 }}
              data-testid="osc-message"
              data-route={message.route}
              data-address={message.address}
            >
              <HStack justify="space-between" align="baseline" gap="3" wrap="wrap">
                <Text wordBreak="break-all" data-testid="osc-message-address">
                  {message.address}
                </Text>
                <Text data-testid="osc-message-args">{argumentsText(message)}</Text>
              </HStack>
              <HStack gap="3">
                <Text color="fg.muted" data-testid="osc-message-time">
                  {clockTime(message.at)}
                </Text>
                <Text color={message.route === 'resolume' ? 'cyan.300' : 'purple.300'} data-testid="osc-message-route">
                  {ROUTE_NAMES[message.route]}
                </Text>
              </HStack>
            </Stack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * Real-time sync: where the studio's beats go while it plays (TouchDesigner through the OSC bridge, Resolume
 * through its own route of the bridge, a browser output window) with their real states, and the OSC
 * messages that actually went out.
 */
export function SyncPanel({
  outputs = controlOutputs,
  watchWindows = watchOutputWindows,
  songBpm = null,
}: {
  outputs?: ControlOutputs;
  watchWindows?: typeof watchOutputWindows;
  /** The loaded song's analysed tempo: Resolume is told it at Connect, before anything has played. */
  songBpm?: number | null;
}) {
  const general = useBridgeStatus(outputs.osc);
  const resolume = useBridgeStatus(outputs.resolume);

  useEffect(() => {
    if (songBpm) outputs.noteTempo(songBpm);
  }, [outputs, songBpm]);

  useEffect(() => {
    // Resolume's remembered target first, so a remembered connection goes there from its first message.
    if (!outputs.resolume.target) {
      const parsed = parseTarget(readResolumeTarget());
      if (!('error' in parsed)) outputs.resolume.setTarget(parsed);
    }
    // Each route is looked for only while this panel is on screen (and only once turned on).
    const offs = [outputs.osc.watch(), outputs.resolume.watch()];
    return () => offs.forEach((off) => off());
  }, [outputs]);

  return (
    <Card.Root data-testid="sync-panel">
      <Card.Body gap="4">
        <Heading size="md">Real-time Sync</Heading>
        <Stack gap="3">
          <TouchDesignerCard client={outputs.osc} status={general} />
          <ResolumeCard client={outputs.resolume} status={resolume} />
          <BrowserOutputCard watchWindows={watchWindows} />
        </Stack>
        <OscMessageList outputs={outputs} general={general} resolume={resolume} />
      </Card.Body>
    </Card.Root>
  );
}
