import { Box, Container, Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Brand } from './Brand';

/** Top bar of the standalone pages: the brand and, on the right, the page's own actions. */
export function PageHeader({ children, withTagline = false }: { children?: ReactNode; withTagline?: boolean }) {
  return (
    <Box as="header" borderBottomWidth="1px">
      <Container maxW="6xl">
        <Flex h="16" align="center" justify="space-between">
          <Brand withTagline={withTagline} />
          {children}
        </Flex>
      </Container>
    </Box>
  );
}
