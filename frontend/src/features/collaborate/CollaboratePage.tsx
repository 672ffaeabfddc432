import { Box, Button, Container, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../ui/PageHeader';

/** /collaborate, signed-in only. Real-time sessions arrive with the collaboration work. */
export function CollaboratePage() {
  return (
    <Box minH="100dvh" bg="bg">
      <PageHeader>
        <Button asChild variant="ghost" size="sm">
          <RouterLink to="/app">Studio</RouterLink>
        </Button>
      </PageHeader>
      <Container maxW="6xl" py="16">
        <Heading as="h1" size="3xl" mb="3">
          Collaborate
        </Heading>
        <Text color="fg.muted">Real-time sessions with participants, roles and chat are being built and will appear here.</Text>
      </Container>
    </Box>
  );
}
