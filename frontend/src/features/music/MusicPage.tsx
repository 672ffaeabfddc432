import { Box, Button, Container, Heading, HStack, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { currentInstrumentRack, onInstrumentRack } from '../../instruments/rackRegistry';
import { PageHeader } from '../../ui/PageHeader';
import { AudioTestBanner } from './AudioTestBanner';
import { DemoSongsPanel } from './DemoSongsPanel';
import { DrumMachinePanel } from './DrumMachinePanel';
import { SynthPanel } from './SynthPanel';

/** /music, open to everyone: audio test, master volume, demo songs, drum machine, synthesizer. */
export function MusicPage() {
  const [volume, setVolume] = useState(100);
  useEffect(() => onInstrumentRack((rack) => rack.setVolume(volume)), [volume]);
  // Leaving the page stops what it started (a demo song or the pattern).
  useEffect(() => () => currentInstrumentRack()?.stopAll(), []);

  return (
    <Box minH="100dvh" bg="bg">
      <PageHeader>
        <Button asChild variant="ghost" size="sm">
          <RouterLink to="/">Home</RouterLink>
        </Button>
      </PageHeader>
      <Container as="main" maxW="6xl" py="8">
        <Stack gap="6">
          <Box>
            <Heading as="h1" size="3xl">
              Music Studio
            </Heading>
            <Text color="fg.muted">Make beats, play the synth, or start from a demo song.</Text>
          </Box>
          <AudioTestBanner />
          <HStack maxW="md">
            <Text fontSize="sm" whiteSpace="nowrap">
              Master volume
            </Text>
            <input
              type="range"
              aria-label="Master volume"
              min={0}
              max={100}
              step={1}
              value={volume}
              onChange={(event) => setVolume(Number(event.target.value))}
              style={{ flex: 1, accentColor: 'var(--chakra-colors-purple-500)' }}
            />
            <Text fontSize="sm" fontFamily="mono" w="10">
              {volume}
            </Text>
          </HStack>
          <Tabs.Root defaultValue="demos" lazyMount unmountOnExit>
            <Tabs.List>
              <Tabs.Trigger value="demos">Demo Songs</Tabs.Trigger>
              <Tabs.Trigger value="drums">Drum Machine</Tabs.Trigger>
              <Tabs.Trigger value="synth">Synthesizer</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="demos">
              <DemoSongsPanel />
            </Tabs.Content>
            <Tabs.Content value="drums">
              <DrumMachinePanel />
            </Tabs.Content>
            <Tabs.Content value="synth">
              <SynthPanel />
            </Tabs.Content>
          </Tabs.Root>
        </Stack>
      </Container>
    </Box>
  );
}
