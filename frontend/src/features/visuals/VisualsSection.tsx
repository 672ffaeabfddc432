import { SimpleGrid, Stack } from '@chakra-ui/react';
import { SyncPanel } from './sync/SyncPanel';
import { VideoGenerationPanel } from './video/VideoGenerationPanel';
import { VisualizerPanel } from './visualizer/VisualizerPanel';

/** "Video & Visuals": the live visualizer across the width, then video generation beside the real-time sync outputs. */
export function VisualsSection() {
  return (
    <Stack gap="6" data-testid="visuals-section">
      <VisualizerPanel />
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="6">
        <VideoGenerationPanel />
        <SyncPanel />
      </SimpleGrid>
    </Stack>
  );
}
