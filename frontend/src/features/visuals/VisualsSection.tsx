import { SimpleGrid, Stack } from '@chakra-ui/react';
import { useAppSelector } from '../../app/hooks';
import { SyncPanel } from './sync/SyncPanel';
import { VideoGenerationPanel } from './video/VideoGenerationPanel';
import { VisualizerPanel } from './visualizer/VisualizerPanel';

/** "Video & Visuals": the live visualizer across the width, then video generation beside the real-time sync outputs. */
export function VisualsSection() {
  const songBpm = useAppSelector((state) => state.project.project?.bpm ?? null);
  return (
    <Stack gap="6" data-testid="visuals-section">
      <VisualizerPanel />
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="6">
        <VideoGenerationPanel />
        <SyncPanel songBpm={songBpm} />
      </SimpleGrid>
    </Stack>
  );
}
