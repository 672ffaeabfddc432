import { Card } from '@chakra-ui/react';

/** Being built (issue 14). */
export function SyncPanel() {
  return <Card.Root data-testid="sync-panel"><Card.Body /></Card.Root>;
}
