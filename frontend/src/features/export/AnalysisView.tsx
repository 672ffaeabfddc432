import { SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { analysisRows } from './analysisFormat';
import type { ProjectAnalysis } from './exportApi';

/** The project's analysis, one figure per cell; a dash for any value it does not have. */
export function AnalysisView({ analysis, note }: { analysis: ProjectAnalysis | null; note?: string | null }) {
  return (
    <Stack gap="2" data-testid="analysis-view" data-analysed={analysis ? 'true' : 'false'}>
      <Text fontWeight="semibold">Music analysis</Text>
      {note && (
        <Text fontSize="sm" color="fg.muted" data-testid="analysis-note">
          {note}
        </Text>
      )}
      <SimpleGrid as="dl" columns={{ base: 2, md: 3 }} gap="3">
        {analysisRows(analysis).map((row) => (
          <Stack key={row.id} gap="0" data-testid={`analysis-${row.id}`}>
            <Text as="dt" fontSize="xs" color="fg.muted">
              {row.label}
            </Text>
            <Text as="dd" fontFamily="mono" fontSize="md" data-testid={`analysis-${row.id}-value`}>
              {row.value}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
