import { HStack, Progress, Stack, Text } from '@chakra-ui/react';
import type { EngineName } from '../../api/mediaTypes';
import { useAppSelector } from '../../app/hooks';
import { ordinal } from './library';

/** Separation progress per engine, as the media service reports it over /ws. */
export function SeparationProgress() {
  const jobs = useAppSelector((s) => s.project.jobs);
  const entries = Object.entries(jobs) as Array<[EngineName, NonNullable<(typeof jobs)[EngineName]>]>;
  if (!entries.length) return null;
  return (
    <Stack gap="2" data-testid="separation-progress">
      {entries.map(([engine, job]) => (
        <Stack key={engine} gap="1" data-testid={`separation-${engine}`} data-queue-position={job.queuePosition ?? ''}>
          <HStack justify="space-between" fontSize="sm">
            <Text>
              {job.status === 'failed'
                ? `Separation failed (${engine}): ${job.message}`
                : job.queuePosition
                  ? `Waiting for your other songs to finish separating: ${ordinal(job.queuePosition)} in line (${engine})`
                  : `Separating stems (${engine})`}
            </Text>
            {job.status === 'running' && !job.queuePosition && <Text fontFamily="mono">{Math.round(job.progress * 100)}%</Text>}
          </HStack>
          {job.status === 'running' && !job.queuePosition && (
            <Progress.Root value={Math.round(job.progress * 100)} size="xs" colorPalette="purple">
              <Progress.Track>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
