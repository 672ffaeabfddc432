import { Box, Card, Heading, HStack, Text } from '@chakra-ui/react';
import { CircleAlert } from 'lucide-react';

export function NotFoundPage() {
  return (
    <Box as="main" minH="100dvh" display="flex" alignItems="center" justifyContent="center" bg="bg" p="4">
      <Card.Root maxW="md" w="full">
        <Card.Body>
          <HStack gap="2" mb="4">
            <CircleAlert color="var(--chakra-colors-red-500)" />
            <Heading size="xl" as="h1">
              404 Page Not Found
            </Heading>
          </HStack>
          <Text color="fg.muted" fontSize="sm">
            Did you forget to add the page to the router?
          </Text>
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
