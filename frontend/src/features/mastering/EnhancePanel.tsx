import { Badge, Button, Card, HStack, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { ENHANCEMENTS, STEM_TYPES, type Enhancement, type StemType } from '@stemdeck/proto/vocabulary';
import { Check, Download, Square, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { DEFAULT_ENHANCE, enhanceChoiceProblem, enhancedOutputs, ENHANCEMENT_NAMES, STEM_NAMES, type EnhancedOutput } from './enhanceState';
import { JobStartRow } from './JobStartRow';
import { useStartEnhanceMutation, type EnhanceParameters, type Job } from './jobsApi';
import { LoudnessCells, LoudnessColumns } from './LoudnessCells';
import { providerLine } from './jobState';
import { useFollowedJob, useProjectBlocker } from './useFollowedJob';

/** An on/off choice as a pressed or unpressed button (the mixer's mute and solo work the same way). */
function Toggle({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Button
      size="sm"
      justifyContent="flex-start"
      variant={checked ? 'solid' : 'outline'}
      colorPalette={checked ? 'purple' : 'gray'}
      aria-pressed={checked}
      onClick={() => onChange(!checked)}
      data-testid={id}
    >
      {checked ? <Check /> : <Square />}
      {label}
    </Button>
  );
}

/**
 * "Enhance": which cleanups (noise reduction, loudness normalization, speech enhancement) on which stems,
 * Start, the job's real progress, then each enhanced stem's loudness before and after and its download.
 * The enhanced stems become a version the mixer plays, switchable back to the original there.
 */
export function EnhancePanel() {
  const project = useAppSelector((state) => state.project.project);
  const [parameters, setParameters] = useState<EnhanceParameters>(DEFAULT_ENHANCE);
  const [startEnhance] = useStartEnhanceMutation();
  const blocked = useProjectBlocker() ?? enhanceChoiceProblem(parameters);
  const followed = useFollowedJob('enhance', project?.id ?? null, blocked);

  const setEnhancement = (name: Enhancement, on: boolean) => setParameters((p) => ({ ...p, enhancements: { ...p.enhancements, [name]: on } }));
  const setTarget = (type: StemType, on: boolean) => setParameters((p) => ({ ...p, targetStems: { ...p.targetStems, [type]: on } }));

  const start = () => {
    if (!project) return;
    void followed.start(() => startEnhance({ projectId: project.id, parameters }).unwrap());
  };

  const job = followed.job;
  return (
    <Stack gap="6" data-testid="enhance-panel">
      <Card.Root>
        <Card.Body>
          <Stack gap="4">
            <Text fontWeight="semibold">Enhance stems</Text>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="6">
              <Stack gap="2" role="group" aria-label="Enhancements">
                <Text fontSize="sm" color="fg.muted">
                  Enhancements
                </Text>
                {ENHANCEMENTS.map((name) => (
                  <Toggle key={name} id={`enhancement-${name}`} label={ENHANCEMENT_NAMES[name]} checked={parameters.enhancements[name]} onChange={(on) => setEnhancement(name, on)} />
                ))}
              </Stack>
              <Stack gap="2" role="group" aria-label="Stems to enhance">
                <Text fontSize="sm" color="fg.muted">
                  Stems to enhance
                </Text>
                {STEM_TYPES.map((type) => (
                  <Toggle key={type} id={`target-${type}`} label={STEM_NAMES[type]} checked={parameters.targetStems[type]} onChange={(on) => setTarget(type, on)} />
                ))}
              </Stack>
            </SimpleGrid>
            <JobStartRow kind="enhance" followed={followed} icon={<Wand2 />} progressLabel="Enhancement progress" onStart={start} />
          </Stack>
        </Card.Body>
      </Card.Root>
      {job?.status === 'completed' && <EnhanceResult job={job} />}
    </Stack>
  );
}

function EnhanceResult({ job }: { job: Job }) {
  const outputs = enhancedOutputs(job);
  return (
    <Card.Root data-testid="enhance-result">
      <Card.Body>
        <Stack gap="4">
          <HStack justify="space-between" wrap="wrap">
            <Text fontWeight="semibold">Enhanced stems</Text>
            <Badge colorPalette="gray" data-testid="enhance-provider">
              {providerLine('enhance', job.provider)}
            </Badge>
          </HStack>
          <Table.Root size="sm" data-testid="enhance-figures">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Stem</Table.ColumnHeader>
                <Table.ColumnHeader />
                <LoudnessColumns />
                <Table.ColumnHeader />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {outputs.flatMap((output) => (['before', 'after'] as const).map((when) => <FigureRow key={`${output.stemType}-${when}`} output={output} when={when} />))}
            </Table.Body>
          </Table.Root>
          <Text fontSize="sm" color="fg.muted" data-testid="enhance-mixer-note">
            The mixer now plays the enhanced {outputs.length === 1 ? 'stem' : 'stems'}. Switch back to the original in the mixer at any time.
          </Text>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function FigureRow({ output, when }: { output: EnhancedOutput; when: 'before' | 'after' }) {
  return (
    <Table.Row data-testid={`enhance-figures-${output.stemType}-${when}`}>
      <Table.Cell fontWeight={when === 'before' ? 'semibold' : undefined}>{when === 'before' ? STEM_NAMES[output.stemType] : ''}</Table.Cell>
      <Table.Cell>{when === 'before' ? 'Before' : 'After'}</Table.Cell>
      <LoudnessCells figures={output[when]} />
      <Table.Cell>
        {when === 'before' && (
          <Button asChild variant="outline" size="xs">
            <a href={output.url} download={output.name} data-testid={`download-enhanced-${output.stemType}`}>
              <Download /> Download
            </a>
          </Button>
        )}
      </Table.Cell>
    </Table.Row>
  );
}
