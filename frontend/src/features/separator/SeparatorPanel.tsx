import { Stack } from '@chakra-ui/react';
import { useAppSelector } from '../../app/hooks';
import { UploadPanel } from '../upload/UploadPanel';
import { PlaybackTimeline } from './PlaybackTimeline';
import { ProjectLibrary } from './ProjectLibrary';
import { SeparationProgress } from './SeparationProgress';
import { StemMixer } from './StemMixer';

/**
 * The "Upload & Split" section (seed 000 §2): upload panel (a compact bar once a project is open); with a
 * project, its timeline; with stems, the mixer; then the user's project library.
 */
export function SeparatorPanel() {
  const { project, stems } = useAppSelector((s) => s.project);
  return (
    <Stack gap="4">
      <UploadPanel />
      <SeparationProgress />
      {project && <PlaybackTimeline />}
      {stems.length > 0 && <StemMixer />}
      <ProjectLibrary />
    </Stack>
  );
}
