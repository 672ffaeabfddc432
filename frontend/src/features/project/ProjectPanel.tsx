import { Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useAppSelector } from '../../app/hooks';
import { PlaybackTimeline } from './PlaybackTimeline';
import { ProjectLibrary } from './ProjectLibrary';
import { SeparationProgress } from './SeparationProgress';
import { StemMixer } from './StemMixer';

/**
 * The "Upload & Split" section below its `upload` panel (given by the studio, a compact bar once a project
 * is open): the separation progress; with a project, its timeline; with stems, the mixer; then the user's
 * project library.
 */
export function ProjectPanel({ upload }: { upload: ReactNode }) {
  const { project, stems } = useAppSelector((s) => s.project);
  return (
    <Stack gap="4">
      {upload}
      <SeparationProgress />
      {project && <PlaybackTimeline />}
      {stems.length > 0 && <StemMixer />}
      <ProjectLibrary />
    </Stack>
  );
}
