import { Box, Button, Container, Flex, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { Brand } from '../../ui/Brand';

/** /collaborate, signed-in only. Real-time sessions arrive with the collaboration work. */
export function CollaboratePage() {
  return (
    <Box minH="100dvh" bg="bg">
      <Box as="header" borderBottomWidth="1px">
        <Container maxW="6xl">
          <Flex h="16" align="center" justify="space-between">
            <Brand />
            <Button asChild variant="ghost" size="sm">
              <RouterLink to="/app">Studio</RouterLink>
            </Button>
          </Flex>
        </Container>
      </Box>
      <Container maxW="6xl" py="16">
        <Heading as="h1" size="3xl" mb="3">
          Collaborate
        </Heading>
        <Text color="fg.muted">Real-time sessions with participants, roles and chat are being built and will appear here.</Text>
      </Container>
    </Box>
  );
}
