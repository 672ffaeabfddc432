import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { CreateMusicPanel } from '../pads/CreateMusicPanel';
import { SeparatorPanel } from '../separator/SeparatorPanel';
import { findSection } from './sections';

/** Panels built so far, by section id; the others show their heading only. */
const PANELS: Record<string, () => React.ReactNode> = { separator: SeparatorPanel, pads: CreateMusicPanel };

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
      {Panel && <Panel />}
    </Stack>
  );
}
