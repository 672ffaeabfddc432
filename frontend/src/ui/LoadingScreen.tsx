import { Center, Spinner, VStack, Text } from '@chakra-ui/react';

export function LoadingScreen() {
  return (
    <Center minH="100dvh" bg="bg">
      <VStack gap="3">
        <Spinner size="lg" color="purple.400" />
        <Text color="fg.muted">Loading…</Text>
      </VStack>
    </Center>
  );
}
