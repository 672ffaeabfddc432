import { HStack, Text } from '@chakra-ui/react';
import { AudioLines } from 'lucide-react';

export const PRODUCT_NAME = 'Stemdeck';
export const PRODUCT_TAGLINE = 'Split. Create. Perform.';

export function Brand({ withTagline = false }: { withTagline?: boolean }) {
  return (
    <HStack gap="2">
      <AudioLines size={24} color="var(--chakra-colors-purple-400)" />
      <Text fontWeight="bold" fontSize="lg" letterSpacing="tight">
        {PRODUCT_NAME}
      </Text>
      {withTagline && (
        <Text color="fg.muted" fontSize="sm" display={{ base: 'none', md: 'block' }}>
          {PRODUCT_TAGLINE}
        </Text>
      )}
    </HStack>
  );
}
