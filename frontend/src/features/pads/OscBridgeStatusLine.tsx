import { Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { controlOutputs } from '../../instruments/controlOutputs';
import type { OscBridgeClient, OscBridgeStatus } from '../../instruments/oscBridgeClient';
import { OSC_BRIDGE_HELP_PATH } from './OscBridgeHelpPage';

/** The bridge's states in plain words (the performance pads and the sync panel's TouchDesigner card). */
export const STATUS_TEXT: Record<OscBridgeStatus['state'], string> = {
  off: 'off',
  connecting: 'looking for it…',
  connected: 'connected',
  'not-running': 'not running',
  error: 'error',
};

/** The help page for the bridge, opened beside the studio. */
export function OscBridgeHelpLink() {
  return (
    <Link href={OSC_BRIDGE_HELP_PATH} target="_blank" rel="noopener" fontSize="xs" color="purple.300" textDecoration="underline">
      How to set up the OSC bridge
    </Link>
  );
}

/** The bridge's state in plain words, with what the person can do about it. */
export function OscBridgeStatusLine({
  bridge,
  testId = 'osc-status',
  osc = controlOutputs.osc,
}: {
  bridge: OscBridgeStatus;
  testId?: string;
  /** The bridge client the buttons act on (the studio's default route unless a test passes its own). */
  osc?: OscBridgeClient;
}) {
  const help = <OscBridgeHelpLink />;
  return (
    <Stack gap="1">
      <Text fontSize="xs" data-testid={testId} data-state={bridge.state}>
        OSC bridge: {STATUS_TEXT[bridge.state]}
        {bridge.target ? ` → ${bridge.target}` : ''}
        {bridge.message ? `: ${bridge.message}` : ''}
      </Text>
      {bridge.state === 'off' ? (
        <>
          <Text fontSize="xs" color="fg.muted">
            Send pads, beats and transport to VJ software (Resolume, TouchDesigner) through the Stemdeck OSC bridge on this computer.
          </Text>
          <HStack gap="3">
            <Button size="xs" variant="outline" onClick={() => osc.setEnabled(true)}>
              Turn on OSC output
            </Button>
            {help}
          </HStack>
        </>
      ) : (
        <>
          {bridge.state !== 'connected' && (
            <Text fontSize="xs" color="fg.muted">
              Browsers cannot send OSC themselves: run the Stemdeck OSC bridge on this computer to reach VJ software.
            </Text>
          )}
          <HStack gap="3">
            {bridge.state !== 'connected' && (
              <Button size="xs" variant="outline" onClick={() => osc.lookAgain()} disabled={bridge.state === 'connecting'}>
                Look again
              </Button>
            )}
            <Button size="xs" variant="ghost" onClick={() => osc.setEnabled(false)}>
              Turn off OSC output
            </Button>
            {bridge.state !== 'connected' && help}
          </HStack>
        </>
      )}
    </Stack>
  );
}
