import { Badge, Box, Button, Card, Container, Flex, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Cpu, Layers, Play, Sparkles, Waves, X, Zap, Music2, Disc3, Mic2 } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Brand } from '../../ui/Brand';
import { IconCard } from '../../ui/IconCard';

const STATS = [
  { value: '0.3s', label: 'Processing Time' },
  { value: '4', label: 'Stem Outputs' },
  { value: '∞', label: 'Creative Possibilities' },
  { value: '24bit', label: 'Audio Quality' },
];

const FEATURES = [
  { icon: Layers, title: 'AI-Powered Separation', text: 'Split any song or video into vocals, drums, bass and other, ready to mix.' },
  { icon: Zap, title: 'Live Performance Mode', text: 'Trigger stems on pads and drive VJ software and DAWs over OSC and MIDI.' },
  { icon: Waves, title: 'Visual Synchronization', text: 'Generate visuals that move with the beat of every stem.' },
  { icon: Sparkles, title: 'Professional Mastering', text: 'Send your mix to mastering services and get a release-ready master back.' },
];

const AI_POINTS = [
  'Separation engines from fast on-device DSP to neural models',
  'Tempo, key and loudness analysed on upload',
  'Stems play in sample-accurate sync in your browser',
  'Export stems, the full mix or the whole project',
];

const STEM_TILES = [
  { name: 'Vocals', icon: Mic2, color: 'pink' },
  { name: 'Drums', icon: Disc3, color: 'orange' },
  { name: 'Bass', icon: Waves, color: 'blue' },
  { name: 'Other', icon: Music2, color: 'green' },
];

/** A mock waveform for the illustration (static art, not data). */
const MOCK_WAVE = Array.from({ length: 48 }, (_, i) => 20 + Math.round(60 * Math.abs(Math.sin(i * 0.45) * Math.cos(i * 0.13))));

export interface LandingPageProps {
  authLoading: boolean;
  signedIn: boolean;
}

export function LandingPage({ authLoading, signedIn }: LandingPageProps) {
  const [demoOpen, setDemoOpen] = useState(false);
  return (
    <Box minH="100dvh" bg="bg" color="fg">
      <Box as="header" borderBottomWidth="1px" position="sticky" top="0" bg="bg/80" backdropFilter="blur(8px)" zIndex="docked">
        <Container maxW="6xl">
          <Flex h="16" align="center" justify="space-between">
            <Brand withTagline />
            {!authLoading &&
              (signedIn ? (
                <Button asChild colorPalette="purple" size="sm">
                  <RouterLink to="/app">Launch Studio</RouterLink>
                </Button>
              ) : (
                <Button asChild colorPalette="purple" size="sm">
                  <a href="/api/login">Sign In</a>
                </Button>
              ))}
          </Flex>
        </Container>
      </Box>

      <Container maxW="6xl" as="main">
        <Stack as="section" align="center" textAlign="center" py={{ base: '16', md: '24' }} gap="6">
          <Badge colorPalette="purple" variant="subtle" size="lg">
            Stem separation · creation · live performance
          </Badge>
          <Heading as="h1" size={{ base: '4xl', md: '6xl' }} letterSpacing="tight" maxW="3xl">
            You Split. You Create. You Perform.
          </Heading>
          <Text fontSize={{ base: 'md', md: 'xl' }} color="fg.muted" maxW="2xl">
            Upload a song or a video and get four stems: vocals, drums, bass and other. Mix them, build beats and synth lines
            around them, and perform them live.
          </Text>
          <HStack gap="3" flexWrap="wrap" justify="center">
            {signedIn ? (
              <Button asChild size="lg" colorPalette="purple">
                <RouterLink to="/app">Open Studio</RouterLink>
              </Button>
            ) : (
              <Button asChild size="lg" colorPalette="purple">
                <a href="/api/login">Sign In to Start</a>
              </Button>
            )}
            <Button size="lg" variant="outline" onClick={() => setDemoOpen(true)}>
              <Play size={18} /> Watch It Work
            </Button>
          </HStack>
        </Stack>

        <SimpleGrid as="section" aria-label="Stats" columns={{ base: 2, md: 4 }} gap="4" pb="16">
          {STATS.map((stat) => (
            <Card.Root key={stat.label} variant="subtle" textAlign="center">
              <Card.Body>
                <Text fontSize="3xl" fontWeight="bold" color="purple.300">
                  {stat.value}
                </Text>
                <Text color="fg.muted">{stat.label}</Text>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>

        <SimpleGrid as="section" aria-label="Features" columns={{ base: 1, md: 2, lg: 4 }} gap="4" pb="20">
          {FEATURES.map((feature) => (
            <IconCard key={feature.title} {...feature} />
          ))}
        </SimpleGrid>

        <SimpleGrid as="section" columns={{ base: 1, md: 2 }} gap="10" alignItems="center" pb="20">
          <Stack gap="4">
            <HStack>
              <Cpu color="var(--chakra-colors-purple-400)" />
              <Heading as="h2" size="2xl">
                Powered by Cutting-Edge AI
              </Heading>
            </HStack>
            <Stack as="ul" gap="2" ps="5" listStyleType="disc" color="fg.muted">
              {AI_POINTS.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </Stack>
          </Stack>
          <Card.Root aria-hidden="true">
            <Card.Body gap="4">
              <Flex align="center" h="24" gap="1">
                {MOCK_WAVE.map((height, i) => (
                  <Box key={i} flex="1" h={`${height}%`} bg="purple.500" borderRadius="full" opacity={0.5 + height / 200} />
                ))}
              </Flex>
              <SimpleGrid columns={4} gap="2">
                {STEM_TILES.map(({ name, icon: Icon, color }) => (
                  <Stack key={name} align="center" p="3" borderRadius="md" bg={`${color}.900/40`} borderWidth="1px" borderColor={`${color}.700`}>
                    <Icon size={18} color={`var(--chakra-colors-${color}-400)`} />
                    <Text fontSize="xs">{name}</Text>
                  </Stack>
                ))}
              </SimpleGrid>
            </Card.Body>
          </Card.Root>
        </SimpleGrid>

        <Stack as="section" align="center" textAlign="center" gap="4" pb="24">
          <Heading as="h2" size="2xl">
            Ready to make something?
          </Heading>
          <Button asChild size="lg" colorPalette="purple">
            <RouterLink to="/app">Launch</RouterLink>
          </Button>
        </Stack>
      </Container>

      {demoOpen && (
        <Flex
          role="dialog"
          aria-label="Demo video"
          position="fixed"
          inset="0"
          bg="blackAlpha.800"
          zIndex="modal"
          align="center"
          justify="center"
          cursor="pointer"
          onClick={() => setDemoOpen(false)}
          data-testid="demo-overlay"
        >
          <Stack align="center" gap="4" bg="bg.panel" p="10" borderRadius="xl" w={{ base: '90%', md: '2xl' }} aspectRatio="16/9" justify="center">
            <Play size={48} />
            <Text fontSize="lg">Demo video</Text>
            <HStack color="fg.muted" fontSize="sm">
              <X size={14} /> <Text>Click anywhere to close</Text>
            </HStack>
          </Stack>
        </Flex>
      )}
    </Box>
  );
}
