import { Box, Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { NO_PROJECT, waitingWords } from './jobState';
import type { FollowedJob } from './useFollowedJob';

/**
 * Start, the running job's real progress (or, while it waits for the user's other jobs, its place in line)
 * with Cancel, and in plain words why Start cannot be pressed, why the server refused it, or how the job
 * ended badly. `kind` names the test ids (`start-<kind>`, …).
 */
export function JobStartRow({ kind, followed, icon, progressLabel, onStart }: { kind: 'mastering' | 'enhance'; followed: FollowedJob; icon: ReactNode; progressLabel: string; onStart: () => void }) {
  const { button, job, startError } = followed;
  return (
    <Stack gap="2">
      <HStack gap="4" wrap="wrap">
        <Button colorPalette="purple" disabled={button.disabled} onClick={onStart} data-testid={`start-${kind}`}>
          {icon}
          {button.label}
        </Button>
        {button.progress !== null && (
          <>
            {button.queuePosition ? (
              <Text flex="1" minW="48" fontSize="sm" color="fg.muted" data-testid={`${kind}-waiting`} data-queue-position={button.queuePosition}>
                {waitingWords(button.queuePosition)}
              </Text>
            ) : (
              <Box flex="1" minW="48" data-testid={`${kind}-progress`} data-progress={button.progress}>
                <Progress.Root value={button.progress} size="sm" colorPalette="purple" aria-label={progressLabel}>
                  <Progress.Track>
                    <Progress.Range />
                  </Progress.Track>
                </Progress.Root>
                <Text fontSize="xs" color="fg.muted">
                  {Math.round(button.progress)}%
                </Text>
              </Box>
            )}
            <Button size="sm" variant="outline" onClick={() => void followed.cancel()} loading={followed.cancelling} data-testid={`cancel-${kind}`}>
              <X /> Cancel
            </Button>
          </>
        )}
      </HStack>
      {/* "No project selected" is said once, above both panels. */}
      {button.blocked && button.blocked !== NO_PROJECT && (
        <Text fontSize="sm" color="fg.muted" data-testid={`${kind}-blocked`}>
          {button.blocked}
        </Text>
      )}
      {startError && !button.blocked && button.progress === null && (
        <Text fontSize="sm" color="fg.error" data-testid={`${kind}-start-error`}>
          {startError}
        </Text>
      )}
      {job?.status === 'failed' && (
        <Text color="fg.error" data-testid={`${kind}-error`}>
          {job.error ?? 'Something went wrong'}
        </Text>
      )}
    </Stack>
  );
}
