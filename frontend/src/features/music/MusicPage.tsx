import { Box, Button, Container, Flex, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { Brand } from '../../ui/Brand';

/** /music, open to everyone. The instruments arrive with the music-creation work. */
export function MusicPage() {
  return (
    <Box minH="100dvh" bg="bg">
      <Box as="header" borderBottomWidth="1px">
        <Container maxW="6xl">
          <Flex h="16" align="center" justify="space-between">
            <Brand />
            <Button asChild variant="ghost" size="sm">
              <RouterLink to="/">Home</RouterLink>
            </Button>
          </Flex>
        </Container>
      </Box>
      <Container maxW="6xl" py="16">
        <Heading as="h1" size="3xl" mb="3">
          Music Studio
        </Heading>
        <Text color="fg.muted">The drum machine, synthesizer and demo songs are being built and will appear here.</Text>
      </Container>
    </Box>
  );
}
