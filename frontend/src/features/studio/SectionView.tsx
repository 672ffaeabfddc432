import { Box, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { findSection } from './sections';

/** Panels built so far, by section id, each its own chunk (the instruments bring Tone.js); the others show their heading only. */
const PANELS: Record<string, ComponentType> = {
  separator: lazy(() => import('./UploadAndSplitSection').then((m) => ({ default: m.UploadAndSplitSection }))),
  pads: lazy(() => import('../pads/CreateMusicPanel').then((m) => ({ default: m.CreateMusicPanel }))),
  visuals: lazy(() => import('../visuals/VisualsSection').then((m) => ({ default: m.VisualsSection }))),
  mastering: lazy(() => import('../mastering/MasteringPanel').then((m) => ({ default: m.MasteringPanel }))),
  export: lazy(() => import('../export/ExportSection').then((m) => ({ default: m.ExportSection }))),
};

/** Heading and subtitle of the active section, then its panel; an unknown id says so. */
export function SectionView({ sectionId }: { sectionId: string }) {
  const section = findSection(sectionId);
  if (!section) {
    return (
      <Box p="8" textAlign="center" color="fg.muted" data-testid="section-not-implemented">
        Section not implemented
      </Box>
    );
  }
  const Panel = PANELS[section.id];
  return (
    <Stack gap="6" data-testid={`section-${section.id}`}>
      <Box>
        <Heading as="h1" size="2xl">
          {section.heading}
        </Heading>
        <Text color="fg.muted">{section.subtitle}</Text>
      </Box>
      {Panel && (
        <Suspense fallback={<Spinner color="purple.400" />}>
          <Panel />
        </Suspense>
      )}
    </Stack>
  );
}
