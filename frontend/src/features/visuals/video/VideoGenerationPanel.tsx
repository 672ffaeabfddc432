import { Card } from '@chakra-ui/react';

/** Being built (issue 14). */
export function VideoGenerationPanel() {
  return <Card.Root data-testid="video-panel"><Card.Body /></Card.Root>;
}
