import { Box, Button, Code, Container, Heading, List, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { OSC_PREFIX } from '../../audio/playbackEvents';
import { DEFAULT_OSC_TARGET, DEFAULT_RESOLUME_TARGET } from '../../instruments/oscBridgeClient';
import { PageHeader } from '../../ui/PageHeader';

/** Where the studio's "How to set up the OSC bridge" link leads; part of the app, so it works offline. */
export const OSC_BRIDGE_HELP_PATH = '/help/osc-bridge';

const MESSAGES: Array<[string, string]> = [
  [`${OSC_PREFIX}/pad/vocals … /pad/distort`, 'a pad hit, with its velocity (127)'],
  [`${OSC_PREFIX}/beat`, 'every beat while something plays: the beat number and the tempo'],
  [`${OSC_PREFIX}/transport`, 'play, continue and stop, with the position in seconds'],
  [`${OSC_PREFIX}/stem/vocals_rms …`, 'the level of each stem while it is loud enough to matter'],
];

/** Help for the OSC bridge in a performer's words; the command that starts it stays in the README. */
export function OscBridgeHelpPage() {
  return (
    <Box minH="100dvh" bg="bg">
      <PageHeader>
        <Button asChild variant="ghost" size="sm">
          <RouterLink to="/app">Back to the studio</RouterLink>
        </Button>
      </PageHeader>
      <Container as="main" maxW="3xl" py="10">
        <Stack gap="6">
          <Heading as="h1" size="3xl">
            The Stemdeck OSC bridge
          </Heading>
          <Text>
            Stemdeck can send your pad hits, beats, play and stop, and the level of each stem to VJ software such as Resolume and
            TouchDesigner as OSC messages. Browsers cannot send OSC themselves, so a small helper program, the Stemdeck OSC bridge,
            passes the messages on. It runs on the same computer as your browser and only accepts connections from it.
          </Text>
          <Stack gap="2">
            <Heading as="h2" size="lg">
              Starting it
            </Heading>
            <Text>
              The bridge comes with Stemdeck. Whoever installed Stemdeck on this computer can start it: the steps are in the “OSC
              bridge” section of Stemdeck’s README. Leave it running while you perform.
            </Text>
          </Stack>
          <Stack gap="2">
            <Heading as="h2" size="lg">
              Connecting
            </Heading>
            <Text>
              Open Create Music in the studio and choose Turn on OSC output (this browser remembers it). While the performance
              pads are on screen Stemdeck then looks for the bridge, less and less often while it is not there. Once you have
              started it, choose Look again: the panel then reads “OSC bridge: connected” and shows where the messages go.
              Choose Turn off OSC output and Stemdeck stops looking.
            </Text>
          </Stack>
          <Stack gap="2">
            <Heading as="h2" size="lg">
              Where the messages go
            </Heading>
            <Text>
              To <Code>{DEFAULT_OSC_TARGET}</Code> at first, Resolume’s usual OSC input on this computer. To send them elsewhere,
              type the receiver’s address and port under OSC out (for example <Code>192.168.1.20:9000</Code>) and choose Apply.
            </Text>
          </Stack>
          <Stack gap="2">
            <Heading as="h2" size="lg">
              Resolume’s tempo
            </Heading>
            <Text>
              In Video &amp; Visuals, the Resolume card sends Resolume its own tempo messages through the same bridge: the song’s
              tempo to Resolume’s tempo fader and a restart of its beat on play and at every bar, so Resolume’s bars follow the
              song. Type where Resolume listens (<Code>{DEFAULT_RESOLUME_TARGET}</Code> unless you changed its OSC input port in
              Resolume’s preferences) and choose Connect; Disconnect stops them. The card’s list shows the latest messages that
              really went out.
            </Text>
          </Stack>
          <Stack gap="2">
            <Heading as="h2" size="lg">
              The messages
            </Heading>
            <List.Root gap="1" ps="5">
              {MESSAGES.map(([address, meaning]) => (
                <List.Item key={address}>
                  <Code>{address}</Code> {meaning}
                </List.Item>
              ))}
            </List.Root>
          </Stack>
        </Stack>
      </Container>
    </Box>
  );
}
