import { Badge, Button, Card, HStack, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
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
import { useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { EnhancePanel } from './EnhancePanel';
import { JobStartRow } from './JobStartRow';
import { LoudnessCells, LoudnessColumns } from './LoudnessCells';
import { MasterComparison } from './MasterComparison';
import { useStartMasteringMutation, type Job } from './jobsApi';
import { ordinal } from '../project/library';
import { JOB_TYPE_NAMES, PROVIDER_NAMES, providerLine } from './jobState';
import { comparedOutput } from './masteringState';
import { useFollowedJob, useProjectBlocker } from './useFollowedJob';
import { useJobLiveEvents } from './useJobLiveEvents';
import { LabelledSelect } from '../../ui/LabelledSelect';


/**
 * "AI Mastering": mastering settings, Start, the running job's real progress, then the result; the Enhance
 * panel; the project's jobs of both kinds.
 */
export function MasteringPanel() {
  const project = useAppSelector((state) => state.project.project);
  const [masterType, setMasterType] = useState<MasterType>('full-mix');
  const [style, setStyle] = useState<MasteringStyle>('balanced');
  const [intensity, setIntensity] = useState<MasteringIntensity>(MASTERING_INTENSITY_DEFAULT as MasteringIntensity);
  const [startMastering] = useStartMasteringMutation();
  // The live job events land in the jobs' cache for both panels.
  useJobLiveEvents();
  const followed = useFollowedJob('mastering', project?.id ?? null, useProjectBlocker());
  const { job, projectJobs } = followed;

  const start = () => {
    if (!project) return;
    void followed.start(() => startMastering({ projectId: project.id, parameters: { masterType, style, intensity } }).unwrap());
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
              <LabelledSelect
                id="master-type"
                label="Master type"
                value={masterType}
                onChange={setMasterType}
                options={MASTER_TYPES.map((type) => ({ value: type, label: MASTER_TYPE_NAMES[type] }))}
              />
              <LabelledSelect
                id="mastering-style"
                label="Style"
                value={style}
                onChange={setStyle}
                options={MASTERING_STYLES.map((name) => ({ value: name, label: name[0]!.toUpperCase() + name.slice(1) }))}
              />
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
            <JobStartRow kind="mastering" followed={followed} icon={<Sparkles />} progressLabel="Mastering progress" onStart={start} />
          </Stack>
        </Card.Body>
      </Card.Root>
      {job?.status === 'completed' && job.result?.before && job.result.after && <MasterResult job={job} result={{ ...job.result, before: job.result.before, after: job.result.after }} />}
      <EnhancePanel />
      {project && <JobList jobs={projectJobs.filter((listed) => listed.type !== 'video')} />}
    </Stack>
  );
}

const MASTER_TYPE_NAMES: Record<MasterType, string> = { 'full-mix': 'Full mix', 'per-stem': 'Per stem', 'stem-groups': 'Stem groups' };

function MasterResult({ job, result }: { job: Job; result: Required<NonNullable<Job['result']>> }) {
  const compared = comparedOutput(result.outputs);
  const several = result.outputs.length > 1;
  return (
    <Card.Root data-testid="mastering-result">
      <Card.Body>
        <Stack gap="4">
          <HStack justify="space-between" wrap="wrap">
            <Text fontWeight="semibold">Your master</Text>
            <Badge colorPalette="gray" data-testid="mastering-provider">
              {providerLine('mastering', job.provider)}
            </Badge>
          </HStack>
          <Table.Root size="sm" data-testid="loudness-figures">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{several ? 'The sum' : ''}</Table.ColumnHeader>
                <LoudnessColumns />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {(['before', 'after'] as const).map((when) => (
                <Table.Row key={when} data-testid={`figures-${when}`}>
                  <Table.Cell>{when === 'before' ? 'Before' : 'After'}</Table.Cell>
                  <LoudnessCells figures={result[when]} />
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          {compared && <MasterComparison projectId={job.projectId} masterUrl={compared.url} before={result.before} after={result.after} />}
          <Stack gap="2" data-testid="master-outputs">
            {several && (
              <Text fontSize="sm" color="fg.muted">
                Each mastered part, and their sum (the one the comparison plays):
              </Text>
            )}
            {result.outputs.map((output) => (
              <HStack key={output.name} gap="3" data-testid="master-output">
                {several && (
                  <Text fontSize="sm" fontFamily="mono" minW="32">
                    {output.name}
                  </Text>
                )}
                <Button asChild variant="outline" size="sm">
                  <a href={output.url} download={output.name} data-testid={output === compared ? 'download-master' : `download-${output.name}`}>
                    <Download /> Download
                  </a>
                </Button>
              </HStack>
            ))}
          </Stack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

const STATUS_PALETTE: Record<Job['status'], string> = { processing: 'purple', completed: 'green', failed: 'red' };

/** The project's masters and enhancements (its music videos are the Video & Visuals section's), newest first: what, who did it, how it stands, when. */
export function JobList({ jobs }: { jobs: Job[] }) {
  return (
    <Card.Root data-testid="mastering-jobs">
      <Card.Body>
        <Stack gap="2">
          <Text fontWeight="semibold">This project's jobs</Text>
          {jobs.length === 0 ? (
            <Text color="fg.muted">No masters or enhancements yet</Text>
          ) : (
            jobs.map((job) => (
              <HStack key={job.id} justify="space-between" wrap="wrap" data-testid="mastering-job" data-type={job.type} data-status={job.status}>
                <HStack gap="3">
                  <Text fontSize="sm" fontWeight="medium" minW="24">
                    {JOB_TYPE_NAMES[job.type]}
                  </Text>
                  <Text fontSize="sm" color="fg.muted">
                    {new Date(job.createdAt).toLocaleString()}
                  </Text>
                </HStack>
                <HStack gap="2">
                  <Text fontSize="xs" color="fg.muted">
                    {PROVIDER_NAMES[job.provider]}
                  </Text>
                  {job.status === 'failed' && job.error && (
                    <Text fontSize="xs" color="fg.muted" maxW="64" truncate title={job.error}>
                      {job.error}
                    </Text>
                  )}
                  <Badge colorPalette={STATUS_PALETTE[job.status]}>{job.status !== 'processing' ? job.status : job.queuePosition ? `waiting · ${ordinal(job.queuePosition)} in line` : `processing ${Math.round(job.progress)}%`}</Badge>
                </HStack>
              </HStack>
            ))
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
