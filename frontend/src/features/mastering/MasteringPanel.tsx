import { Badge, Box, Button, Card, HStack, Progress, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import {
  MASTER_TYPES,
  MASTERING_INTENSITY_DEFAULT,
  MASTERING_INTENSITY_MAX,
  MASTERING_INTENSITY_MIN,
  MASTERING_INTENSITY_NAMES,
  MASTERING_STYLES,
  type MasteringIntensity,
  type MasteringStyle,
  type MasterType,
} from '@stemdeck/proto/vocabulary';
import { Download, Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { toaster } from '../../ui/toaster';
import { MasterComparison } from './MasterComparison';
import { jobsApi, useGetJobQuery, useProjectJobsQuery, useStartMasteringMutation, type Job } from './jobsApi';
import { jobToast, masteringButton, START_FAILED_TOAST, START_OK_TOAST, type ToastChoice } from './masteringState';
import { useMasteringLiveEvents } from './useMasteringLiveEvents';

const POLL_MS = 1000;

const selectStyle = { padding: '6px 8px', borderRadius: 6, background: 'transparent', border: '1px solid var(--chakra-colors-border)' };

const showToast = ({ title, description, type }: ToastChoice) => toaster.create({ title, description, type });

/** "AI Mastering": settings, Start, the running job's real progress, then the result and the project's jobs. */
export function MasteringPanel() {
  const project = useAppSelector((state) => state.project.project);
  const dispatch = useAppDispatch();
  const [masterType, setMasterType] = useState<MasterType>('full-mix');
  const [style, setStyle] = useState<MasteringStyle>('balanced');
  const [intensity, setIntensity] = useState<MasteringIntensity>(MASTERING_INTENSITY_DEFAULT as MasteringIntensity);
  const [startedJobId, setStartedJobId] = useState<string | null>(null);
  const [startMastering, { isLoading: starting }] = useStartMasteringMutation();
  const { data: projectJobs = [] } = useProjectJobsQuery(project?.id ?? skipToken);
  useMasteringLiveEvents();

  // The job shown: the one started here, else the project's newest (a job started before this panel opened).
  const shownJobId = startedJobId ?? projectJobs[0]?.id ?? null;
  const [processing, setProcessing] = useState(false);
  const { data: polled } = useGetJobQuery(shownJobId ?? skipToken, { pollingInterval: processing ? POLL_MS : 0, skipPollingIfUnfocused: false });
  const job: Job | null = polled && polled.projectId === project?.id ? polled : null;
  useEffect(() => setProcessing(job?.status === 'processing'), [job?.status]);

  // One toast per change of status, whichever of the poll and the live event brought it.
  const seen = useRef<{ id: string; status: Job['status'] } | null>(null);
  useEffect(() => {
    if (!job) return;
    const previous = seen.current?.id === job.id ? seen.current.status : null;
    // A poll sent before the job finished may answer after its live event: a finished job stays finished.
    if (previous && previous !== 'processing' && job.status === 'processing') return;
    seen.current = { id: job.id, status: job.status };
    const toast = jobToast(previous, job);
    if (!toast) return;
    showToast(toast);
    // The poll may bring the news before (or without) the live event: the job list is refreshed either way.
    dispatch(jobsApi.util.invalidateTags(['Jobs']));
  }, [job, dispatch]);

  useEffect(() => setStartedJobId(null), [project?.id]);

  // Started, and its first answer not shown yet: still starting (the button must not come back meanwhile).
  const button = masteringButton({ hasProject: Boolean(project), starting: starting || (startedJobId !== null && job?.id !== startedJobId), job });

  const start = async () => {
    if (!project) return;
    try {
      const created = await startMastering({ projectId: project.id, parameters: { masterType, style, intensity } }).unwrap();
      seen.current = { id: created.id, status: 'processing' };
      void dispatch(jobsApi.util.upsertQueryData('getJob', created.id, created));
      setStartedJobId(created.id);
      showToast(START_OK_TOAST);
    } catch {
      showToast(START_FAILED_TOAST);
    }
  };

  return (
    <Stack gap="6" data-testid="mastering-panel">
      <Card.Root>
        <Card.Body>
          <Stack gap="4">
            {project ? (
              <Text fontWeight="semibold" data-testid="mastering-project">
                Project: {project.name}
              </Text>
            ) : (
              <Text color="fg.muted" data-testid="mastering-no-project">
                No project selected
              </Text>
            )}
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
              <Stack gap="1">
                <label htmlFor="master-type">
                  <Text fontSize="sm">Master type</Text>
                </label>
                <select id="master-type" value={masterType} onChange={(event) => setMasterType(event.target.value as MasterType)} style={selectStyle}>
                  {MASTER_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {MASTER_TYPE_NAMES[type]}
                    </option>
                  ))}
                </select>
              </Stack>
              <Stack gap="1">
                <label htmlFor="mastering-style">
                  <Text fontSize="sm">Style</Text>
                </label>
                <select id="mastering-style" value={style} onChange={(event) => setStyle(event.target.value as MasteringStyle)} style={selectStyle}>
                  {MASTERING_STYLES.map((name) => (
                    <option key={name} value={name}>
                      {name[0]!.toUpperCase() + name.slice(1)}
                    </option>
                  ))}
                </select>
              </Stack>
              <Stack gap="1">
                <label htmlFor="mastering-intensity">
                  <Text fontSize="sm">
                    Intensity: <span data-testid="mastering-intensity-name">{MASTERING_INTENSITY_NAMES[intensity]}</span>
                  </Text>
                </label>
                <input
                  id="mastering-intensity"
                  type="range"
                  min={MASTERING_INTENSITY_MIN}
                  max={MASTERING_INTENSITY_MAX}
                  step={1}
                  value={intensity}
                  aria-valuetext={MASTERING_INTENSITY_NAMES[intensity]}
                  onChange={(event) => setIntensity(Number(event.target.value) as MasteringIntensity)}
                />
                <HStack justify="space-between" fontSize="xs" color="fg.muted">
                  <span>Light</span>
                  <span>Medium</span>
                  <span>Heavy</span>
                </HStack>
              </Stack>
            </SimpleGrid>
            <HStack gap="4" wrap="wrap">
              <Button colorPalette="purple" disabled={button.disabled} onClick={() => void start()} data-testid="start-mastering">
                <Sparkles />
                {button.label}
              </Button>
              {button.progress !== null && (
                <Box flex="1" minW="48" data-testid="mastering-progress" data-progress={button.progress}>
                  <Progress.Root value={button.progress} size="sm" colorPalette="purple" aria-label="Mastering progress">
                    <Progress.Track>
                      <Progress.Range />
                    </Progress.Track>
                  </Progress.Root>
                  <Text fontSize="xs" color="fg.muted">
                    {Math.round(button.progress)}%
                  </Text>
                </Box>
              )}
            </HStack>
            {job?.status === 'failed' && (
              <Text color="fg.error" data-testid="mastering-error">
                {job.error ?? 'Mastering failed'}
              </Text>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
      {job?.status === 'completed' && job.result?.before && job.result.after && <MasterResult job={job} result={{ ...job.result, before: job.result.before, after: job.result.after }} />}
      {project && <JobList jobs={projectJobs} />}
    </Stack>
  );
}

const MASTER_TYPE_NAMES: Record<MasterType, string> = { 'full-mix': 'Full mix', 'per-stem': 'Per stem', 'stem-groups': 'Stem groups' };

function MasterResult({ job, result }: { job: Job; result: Required<NonNullable<Job['result']>> }) {
  const output = result.outputs[0];
  return (
    <Card.Root data-testid="mastering-result">
      <Card.Body>
        <Stack gap="4">
          <HStack justify="space-between" wrap="wrap">
            <Text fontWeight="semibold">Your master</Text>
            {job.provider === 'local' && (
              <Badge colorPalette="gray" data-testid="mastered-locally">
                Mastered locally
              </Badge>
            )}
          </HStack>
          <Table.Root size="sm" data-testid="loudness-figures">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader />
                <Table.ColumnHeader>Integrated loudness</Table.ColumnHeader>
                <Table.ColumnHeader>Loudness range</Table.ColumnHeader>
                <Table.ColumnHeader>True peak</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {(['before', 'after'] as const).map((when) => (
                <Table.Row key={when} data-testid={`figures-${when}`}>
                  <Table.Cell>{when === 'before' ? 'Before' : 'After'}</Table.Cell>
                  <Table.Cell>{result[when].integratedLufs.toFixed(1)} LUFS</Table.Cell>
                  <Table.Cell>{result[when].lra.toFixed(1)} LU</Table.Cell>
                  <Table.Cell>{result[when].truePeakDbtp.toFixed(1)} dBTP</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          {output && (
            <>
              <MasterComparison projectId={job.projectId} masterUrl={output.url} before={result.before} after={result.after} />
              <Box>
                <Button asChild variant="outline" size="sm">
                  <a href={output.url} download={output.name} data-testid="download-master">
                    <Download /> Download
                  </a>
                </Button>
              </Box>
            </>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

const STATUS_PALETTE: Record<Job['status'], string> = { processing: 'purple', completed: 'green', failed: 'red' };

function JobList({ jobs }: { jobs: Job[] }) {
  return (
    <Card.Root data-testid="mastering-jobs">
      <Card.Body>
        <Stack gap="2">
          <Text fontWeight="semibold">This project's masters</Text>
          {jobs.length === 0 ? (
            <Text color="fg.muted">No masters yet</Text>
          ) : (
            jobs.map((job) => (
              <HStack key={job.id} justify="space-between" data-testid="mastering-job">
                <Text fontSize="sm">{new Date(job.createdAt).toLocaleString()}</Text>
                <HStack gap="2">
                  {job.provider === 'local' && (
                    <Text fontSize="xs" color="fg.muted">
                      local
                    </Text>
                  )}
                  <Badge colorPalette={STATUS_PALETTE[job.status]}>{job.status === 'processing' ? `processing ${Math.round(job.progress)}%` : job.status}</Badge>
                </HStack>
              </HStack>
            ))
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
