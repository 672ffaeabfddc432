import { Box, Button, Container, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from './PageHeader';

export interface PlaceholderPageProps {
  title: string;
  text: string;
  /** The header's way back. */
  back: { to: string; label: string };
}

/** A standalone page whose feature is still being built: says so plainly, offers a way back. */
export function PlaceholderPage({ title, text, back }: PlaceholderPageProps) {
  return (
    <Box minH="100dvh" bg="bg">
      <PageHeader>
        <Button asChild variant="ghost" size="sm">
          <RouterLink to={back.to}>{back.label}</RouterLink>
        </Button>
      </PageHeader>
      <Container maxW="6xl" py="16">
        <Heading as="h1" size="3xl" mb="3">
          {title}
        </Heading>
        <Text color="fg.muted">{text}</Text>
      </Container>
    </Box>
  );
}
