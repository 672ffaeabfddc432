import { Box, Button, Card, HStack, Progress, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { VIDEO_DEFAULT_PROMPT, VIDEO_DURATIONS, VIDEO_PROMPT_MAX, VIDEO_RESOLUTIONS, type VideoDuration, type VideoResolutionName } from '@stemdeck/proto/vocabulary';
import { Clapperboard, Download, X } from 'lucide-react';
import { useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { useStartVideoMutation, type VideoParameters } from '../../mastering/jobsApi';
import { NO_PROJECT, providerLine, waitingWords } from '../../mastering/jobState';
import { useFollowedJob, useProjectBlocker } from '../../mastering/useFollowedJob';
import { useJobLiveEvents } from '../../mastering/useJobLiveEvents';
import { useJobPace } from './useJobPace';
import { customSpan, durationLabels, lookLine, spanLine, videoOutput, type CustomRange } from './videoPanelState';
import { fieldStyle, LabelledSelect } from '../../../ui/LabelledSelect';

const RESOLUTION_LABELS: Record<VideoResolutionName, string> = { '720p': '720p (HD)', '1080p': '1080p (Full HD)', '4k': '4K (Ultra HD)' };
export const NOT_ANALYSED = 'The song is still being analysed. You can generate a video once it is.';
export const NO_PROMPT = 'Describe a style for the video.';

/**
 * "Video Generation": a style prompt, which part of the song (the whole track with its real length, the chorus
 * loop, or a chosen range) and the resolution — sent as chosen — then the job's real progress with the time left
 * at its measured rate, and the finished video: a player, a download, and who rendered it with which look.
 */
export function VideoGenerationPanel() {
  const project = useAppSelector((state) => state.project.project);
  const [prompt, setPrompt] = useState(VIDEO_DEFAULT_PROMPT);
  const [duration, setDuration] = useState<VideoDuration>('full');
  const [range, setRange] = useState<CustomRange>({ start: '0:00', end: '0:30' });
  const [resolution, setResolution] = useState<VideoResolutionName>('1080p');
  const [startVideo] = useStartVideoMutation();
  useJobLiveEvents();

  const songSeconds = project?.duration ?? null;
  const labels = durationLabels(songSeconds);
  const span = duration === 'custom' ? customSpan(range, songSeconds) : null;
  const projectBlocker = useProjectBlocker();
  const blocked =
    projectBlocker ??
    (project?.bpm === null ? NOT_ANALYSED : null) ??
    (prompt.trim() === '' ? NO_PROMPT : null) ??
    (typeof span === 'string' ? span : null);
  const followed = useFollowedJob('video', project?.id ?? null, blocked);
  const { job, button, startError } = followed;
  // The pace is measured from the job's own run: none while it waits for the user's other jobs.
  const pace = useJobPace(job?.queuePosition ? null : job);
  const video = videoOutput(job);
  const running = button.progress !== null;

  const start = () => {
    if (!project) return;
    const parameters: VideoParameters = {
      prompt: prompt.trim(),
      duration,
      resolution,
      ...(span && typeof span !== 'string' ? { customStart: span.startSeconds, customEnd: span.endSeconds } : {}),
    };
    void followed.start(() => startVideo({ projectId: project.id, parameters }).unwrap());
  };

  return (
    <Card.Root data-testid="video-panel">
      <Card.Header>
        <Card.Title>Video Generation</Card.Title>
        <Card.Description>A music video of your song, its picture moving with the beat.</Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          {project ? (
            <Text fontWeight="semibold" data-testid="video-project">
              Project: {project.name}
            </Text>
          ) : (
            <Text color="fg.muted" data-testid="video-no-project">
              {NO_PROJECT}
            </Text>
          )}
          <Stack gap="1">
            <label htmlFor="video-prompt">
              <Text fontSize="sm">Style prompt</Text>
            </label>
            <Textarea id="video-prompt" value={prompt} maxLength={VIDEO_PROMPT_MAX} rows={3} onChange={(event) => setPrompt(event.target.value)} />
            <Text fontSize="xs" color="fg.muted" alignSelf="flex-end" data-testid="video-prompt-count">
              {prompt.length}/{VIDEO_PROMPT_MAX}
            </Text>
          </Stack>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <LabelledSelect
              id="video-duration"
              label="Duration"
              value={duration}
              onChange={setDuration}
              options={VIDEO_DURATIONS.map((name) => ({ value: name, label: labels[name] }))}
            />
            <LabelledSelect
              id="video-resolution"
              label="Resolution"
              value={resolution}
              onChange={setResolution}
              options={VIDEO_RESOLUTIONS.map((name) => ({ value: name, label: RESOLUTION_LABELS[name] }))}
            />
          </SimpleGrid>
          {duration === 'custom' && (
            <HStack gap="4" data-testid="video-custom-range">
              <Stack gap="1">
                <label htmlFor="video-custom-start">
                  <Text fontSize="sm">From (m:ss)</Text>
                </label>
                <input id="video-custom-start" value={range.start} onChange={(event) => setRange({ ...range, start: event.target.value })} style={{ ...fieldStyle, width: '7em' }} />
              </Stack>
              <Stack gap="1">
                <label htmlFor="video-custom-end">
                  <Text fontSize="sm">To (m:ss)</Text>
                </label>
                <input id="video-custom-end" value={range.end} onChange={(event) => setRange({ ...range, end: event.target.value })} style={{ ...fieldStyle, width: '7em' }} />
              </Stack>
            </HStack>
          )}

          <HStack gap="4" wrap="wrap">
            <Button colorPalette="purple" disabled={button.disabled} onClick={start} data-testid="start-video">
              <Clapperboard />
              {running ? (button.queuePosition ? 'Waiting...' : 'Generating...') : button.label}
            </Button>
            {running && (
              <>
                {button.queuePosition ? (
                  <Text flex="1" minW="48" fontSize="sm" color="fg.muted" data-testid="video-waiting" data-queue-position={button.queuePosition}>
                    {waitingWords(button.queuePosition)}
                  </Text>
                ) : (
                  <Box flex="1" minW="48" data-testid="video-progress" data-progress={pace.progress ?? button.progress}>
                    <Progress.Root value={pace.progress ?? button.progress} size="sm" colorPalette="purple" aria-label="Video generation progress">
                      <Progress.Track>
                        <Progress.Range />
                      </Progress.Track>
                    </Progress.Root>
                    <Text fontSize="xs" color="fg.muted" data-testid="video-remaining">
                      {Math.round(pace.progress ?? button.progress ?? 0)}%{pace.remaining !== null ? ` · ${pace.remaining} seconds remaining` : ' · measuring the time left'}
                    </Text>
                  </Box>
                )}
                <Button size="sm" variant="outline" onClick={() => void followed.cancel()} loading={followed.cancelling} data-testid="cancel-video">
                  <X /> Cancel
                </Button>
              </>
            )}
          </HStack>
          {button.blocked && button.blocked !== NO_PROJECT && (
            <Text fontSize="sm" color="fg.muted" data-testid="video-blocked">
              {button.blocked}
            </Text>
          )}
          {startError && !button.blocked && !running && (
            <Text fontSize="sm" color="fg.error" data-testid="video-start-error">
              {startError}
            </Text>
          )}
          {job?.status === 'failed' && (
            <Text color="fg.error" data-testid="video-error">
              {job.error ?? 'Something went wrong'}
            </Text>
          )}

          {job && video && (
            <Stack gap="2" data-testid="video-result">
              <video controls preload="metadata" src={video.url} data-testid="video-player" style={{ width: '100%', borderRadius: 8, background: 'black' }} />
              <HStack justify="space-between" wrap="wrap" gap="2">
                <Stack gap="0">
                  <Text fontSize="sm" fontWeight="medium" data-testid="video-provider">
                    {providerLine('video', job.provider)}
                  </Text>
                  <Text fontSize="xs" color="fg.muted" data-testid="video-span">
                    {spanLine(video.facts)}
                  </Text>
                  {lookLine(video.facts) && (
                    <Text fontSize="xs" color="fg.muted" data-testid="video-look">
                      {lookLine(video.facts)}
                    </Text>
                  )}
                </Stack>
                <Button asChild size="sm" variant="outline" data-testid="download-video">
                  <a href={`${video.url}?download=1`} download>
                    <Download /> Download
                  </a>
                </Button>
              </HStack>
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
