import { Box, Button, Container, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../ui/PageHeader';

/** /music, open to everyone. The instruments arrive with the music-creation work. */
export function MusicPage() {
  return (
    <Box minH="100dvh" bg="bg">
      <PageHeader>
        <Button asChild variant="ghost" size="sm">
          <RouterLink to="/">Home</RouterLink>
        </Button>
      </PageHeader>
      <Container maxW="6xl" py="16">
        <Heading as="h1" size="3xl" mb="3">
          Music Studio
        </Heading>
        <Text color="fg.muted">The drum machine, synthesizer and demo songs are being built and will appear here.</Text>
      </Container>
    </Box>
  );
}
