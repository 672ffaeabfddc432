import { SimpleGrid, Stack } from '@chakra-ui/react';
import { DrumMachinePanel } from '../music/DrumMachinePanel';
import { SynthPanel } from '../music/SynthPanel';
import { PerformancePads } from './PerformancePads';

/** The Create Music section: the two instruments of /music, and the performance pads. */
export function CreateMusicPanel() {
  return (
    <Stack gap="4">
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4">
        <DrumMachinePanel />
        <SynthPanel />
      </SimpleGrid>
      <PerformancePads />
    </Stack>
  );
}
