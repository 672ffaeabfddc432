import { Card } from '@chakra-ui/react';

/** Being built (issue 14). */
export function VisualizerPanel() {
  return <Card.Root data-testid="visualizer-panel"><Card.Body /></Card.Root>;
}
