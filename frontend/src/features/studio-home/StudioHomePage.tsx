import { Box, Button, Container, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { CheckCircle2, Keyboard, SlidersHorizontal, Drum } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { IconCard } from '../../ui/IconCard';
import { PageHeader } from '../../ui/PageHeader';

const EQUIPMENT = [
  { icon: SlidersHorizontal, title: 'Mixing Console', text: 'Four stems on faders with mute, solo and real level meters.' },
  { icon: Keyboard, title: 'Synthesizer & Keys', text: 'A polyphonic synth with filter and envelope, played from keys or MIDI.' },
  { icon: Drum, title: 'Drum Machine', text: 'Twelve pads and a sixteen-step sequencer locked to the audio clock.' },
];

const FEATURE_LIST = ['AI Stem Separation', 'Real-Time Audio Processing', 'AI Mastering Integration', 'Collaborative Sessions'];

/** Signing in from here comes back here, where the studio itself then opens. */
const SIGN_IN_HREF = `/api/login?returnTo=${encodeURIComponent('/studio')}`;

/**
 * Studio home: route / when signed in, /studio when signed out. Signed out, it invites the visitor to
 * sign in (uploads and stems need an account) and keeps the instruments, which are open to everyone.
 */
export function StudioHomePage({ signedIn }: { signedIn: boolean }) {
  return (
    <Box minH="100dvh" bg="bg">
      <PageHeader withTagline>
        {!signedIn && (
          <Button asChild colorPalette="purple" size="sm">
            <a href={SIGN_IN_HREF}>Sign In</a>
          </Button>
        )}
      </PageHeader>
      <Container maxW="6xl" as="main" py="16">
        <Stack align="center" textAlign="center" gap="6" pb="14">
          <Heading as="h1" size={{ base: '3xl', md: '5xl' }}>
            {signedIn ? 'Your studio is ready' : 'Sign in to open your studio'}
          </Heading>
          <Text color="fg.muted" maxW="xl">
            {signedIn
              ? 'Make music from scratch, or upload a song or video and work with its stems.'
              : 'Uploading songs and videos and working with their stems needs an account. The drum machine, synthesizer and demo songs are open to everyone.'}
          </Text>
          <HStack gap="3" flexWrap="wrap" justify="center">
            {signedIn ? (
              <>
                <Button asChild size="lg" colorPalette="purple">
                  <RouterLink to="/music">Start Creating Music</RouterLink>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <RouterLink to="/app">Upload & Process Media</RouterLink>
                </Button>
              </>
            ) : (
              <>
                <Button asChild size="lg" colorPalette="purple">
                  <a href={SIGN_IN_HREF}>Sign In to Start</a>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <RouterLink to="/music">Start Creating Music</RouterLink>
                </Button>
              </>
            )}
          </HStack>
        </Stack>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" pb="14">
          {EQUIPMENT.map((item) => (
            <IconCard key={item.title} {...item} />
          ))}
        </SimpleGrid>
        <Stack align="center" gap="6">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
            {FEATURE_LIST.map((feature) => (
              <HStack key={feature}>
                <CheckCircle2 size={18} color="var(--chakra-colors-green-400)" />
                <Text>{feature}</Text>
              </HStack>
            ))}
          </SimpleGrid>
          <HStack gap="3">
            <Button asChild colorPalette="purple">
              <RouterLink to="/music">Launch Studio</RouterLink>
            </Button>
            <Button asChild variant="outline">
              <RouterLink to="/">Upload Files</RouterLink>
            </Button>
          </HStack>
        </Stack>
      </Container>
    </Box>
  );
}
