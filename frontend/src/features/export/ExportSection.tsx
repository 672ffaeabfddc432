import { SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useAppSelector } from '../../app/hooks';
import { SharePanel } from '../share/SharePanel';
import { AudioExportPanel } from './AudioExportPanel';
import { ProjectExportPanel } from './ProjectExportPanel';

/** "Export & Share": audio export and project data side by side, sharing below; the open project named once above them. */
export function ExportSection() {
  const project = useAppSelector((state) => state.project.project);
  return (
    <Stack gap="6" data-testid="export-section">
      {project ? (
        <Text fontWeight="semibold" data-testid="export-project-name">
          Project: {project.name}
        </Text>
      ) : (
        <Text color="fg.muted" data-testid="export-no-project">
          No project selected
        </Text>
      )}
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="6" alignItems="start">
        <AudioExportPanel />
        <ProjectExportPanel />
      </SimpleGrid>
      <SharePanel />
    </Stack>
  );
}
