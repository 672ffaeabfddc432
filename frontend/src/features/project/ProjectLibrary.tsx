import { Badge, Box, Button, Card, Flex, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import { FolderOpen, Pencil, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { Project } from '../../api/mediaTypes';
import { formatStorage } from '@stemdeck/proto/vocabulary';
import { useAppSelector } from '../../app/hooks';
import { ensureAudioContext } from '../../audio/audioContext';
import { formatTime } from '../../lib/format';
import { toaster } from '../../ui/toaster';
import { checkProjectName, createdLabel, PROJECT_NAME_MAX, stemStatusOf } from './library';
import { useDeleteProjectMutation, useListProjectsQuery, useRenameProjectMutation, useStorageUsageQuery } from './projectsApi';
import { useStudioProject } from './StudioProjectContext';
import { serverMessage } from './studioProject';

/** The list is read again this often while one of its projects is still separating. */
const BUSY_REFRESH_MS = 3000;

const TONE_PALETTE = { ready: 'green', busy: 'purple', failed: 'red', none: 'gray' } as const;

function RenameForm({ project, onDone }: { project: Project; onDone: () => void }) {
  const studio = useStudioProject();
  const [rename, { isLoading }] = useRenameProjectMutation();
  const [draft, setDraft] = useState(project.name);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkProjectName(draft);
    if (!checked.ok) return setProblem(checked.message);
    try {
      const renamed = await rename({ id: project.id, name: checked.name }).unwrap();
      studio.renamed(renamed.id, renamed.name);
      onDone();
    } catch (error) {
      setProblem(serverMessage(error) ?? 'The project could not be renamed');
    }
  };

  return (
    <Box as="form" onSubmit={(event: FormEvent) => void submit(event)} w="full" data-testid="rename-form">
      <HStack gap="2">
        <Input
          size="sm"
          autoFocus
          aria-label={`New name for ${project.name}`}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `rename-problem-${project.id}` : undefined}
          value={draft}
          maxLength={PROJECT_NAME_MAX + 20}
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => event.key === 'Escape' && onDone()}
        />
        <Button size="sm" type="submit" colorPalette="purple" loading={isLoading}>
          Save
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </HStack>
      {problem && (
        <Text id={`rename-problem-${project.id}`} role="alert" fontSize="sm" color="fg.error" mt="1">
          {problem}
        </Text>
      )}
    </Box>
  );
}

function DeleteConfirm({ project, onDone }: { project: Project; onDone: () => void }) {
  const studio = useStudioProject();
  const [remove, { isLoading }] = useDeleteProjectMutation();
  const confirm = async () => {
    try {
      await remove(project.id).unwrap();
      studio.close(project.id);
      toaster.create({ title: 'Project deleted', description: `${project.name} and its stems are gone`, type: 'success' });
    } catch (error) {
      toaster.create({ title: 'Delete failed', description: serverMessage(error) ?? 'The project could not be deleted', type: 'error' });
    }
    onDone();
  };
  return (
    <HStack gap="2" wrap="wrap" role="group" aria-label={`Delete ${project.name}?`} data-testid="delete-confirm">
      <Text fontSize="sm">Delete it with its stems? This cannot be undone.</Text>
      <Button size="sm" colorPalette="red" loading={isLoading} onClick={() => void confirm()}>
        Delete for good
      </Button>
      <Button size="sm" variant="ghost" autoFocus onClick={onDone}>
        Keep it
      </Button>
    </HStack>
  );
}

function ProjectRow({ project, isOpen }: { project: Project; isOpen: boolean }) {
  const studio = useStudioProject();
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const status = stemStatusOf(project);
  const open = () => {
    // This click is a user gesture: the audio context can start now, ready when the stems are.
    try {
      ensureAudioContext();
    } catch {
      // Play reports it if the context still cannot be created
    }
    void studio.open(project);
  };

  return (
    <Box as="li" listStyleType="none" borderWidth="1px" rounded="md" px="3" py="2" data-testid="library-project" data-project-id={project.id}>
      <Flex align="center" gap="3" wrap="wrap">
        <Stack gap="0.5" flex="1" minW="48">
          <HStack gap="2">
            <Text fontWeight="medium" truncate data-testid="library-name">
              {project.name}
            </Text>
            {isOpen && (
              <Badge colorPalette="purple" size="sm">
                open
              </Badge>
            )}
          </HStack>
          <Text fontSize="xs" color="fg.muted" data-testid="library-details">
            {formatTime(project.duration)}
            {project.bpm !== null ? ` · ${Math.round(project.bpm)} BPM` : ''}
            {project.key ? ` · ${project.key}` : ''} · {createdLabel(project.createdAt)}
          </Text>
        </Stack>
        <Badge colorPalette={TONE_PALETTE[status.tone]} data-testid="library-status">
          {status.tone === 'busy' && <Spinner size="xs" />}
          {status.label}
        </Badge>
        {mode === 'view' && (
          <HStack gap="1">
            <Button size="xs" variant="outline" aria-label={`Open ${project.name}`} disabled={isOpen || project.source === 'manual'} onClick={open}>
              <FolderOpen /> Open
            </Button>
            <Button size="xs" variant="ghost" aria-label={`Rename ${project.name}`} onClick={() => setMode('rename')}>
              <Pencil /> Rename
            </Button>
            <Button size="xs" variant="ghost" colorPalette="red" aria-label={`Delete ${project.name}`} onClick={() => setMode('delete')}>
              <Trash2 /> Delete
            </Button>
          </HStack>
        )}
      </Flex>
      {mode === 'rename' && (
        <Box mt="2">
          <RenameForm project={project} onDone={() => setMode('view')} />
        </Box>
      )}
      {mode === 'delete' && (
        <Box mt="2">
          <DeleteConfirm project={project} onDone={() => setMode('view')} />
        </Box>
      )}
    </Box>
  );
}

/** The user's projects, newest first: open one (in any browser), rename it, delete it with everything it holds. */
export function ProjectLibrary() {
  const openId = useAppSelector((s) => s.project.project?.id ?? null);
  const [refresh, setRefresh] = useState(0);
  const { data: projects = [], isLoading, isError } = useListProjectsQuery(undefined, { pollingInterval: refresh });
  const busy = projects.some((p) => stemStatusOf(p).tone === 'busy');
  if (busy !== (refresh > 0)) setRefresh(busy ? BUSY_REFRESH_MS : 0);
  // Stems land while a project separates, so usage is read again as often as the list.
  const { data: usage } = useStorageUsageQuery(undefined, { pollingInterval: refresh });

  return (
    <Card.Root data-testid="project-library">
      <Card.Body gap="3">
        <HStack justify="space-between">
          <Text as="h2" fontWeight="semibold">
            Your projects
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {projects.length ? `${projects.length} ${projects.length === 1 ? 'project' : 'projects'}` : ''}
          </Text>
        </HStack>
        {usage && (
          <Text fontSize="sm" color={usage.remainingBytes === 0 ? 'fg.error' : 'fg.muted'} data-testid="storage-usage">
            Storage: {formatStorage(usage.usedBytes)} of {formatStorage(usage.quotaBytes)}
            {usage.remainingBytes === 0 ? ' — full: delete a project to upload more' : ''}
          </Text>
        )}
        {isLoading && <Spinner size="sm" />}
        {isError && <Text fontSize="sm">Your projects could not be loaded. Reload the page to try again.</Text>}
        {!isLoading && !isError && projects.length === 0 && (
          <Text fontSize="sm" color="fg.muted" data-testid="library-empty">
            No projects yet. Upload a song and it will be kept here.
          </Text>
        )}
        {projects.length > 0 && (
          <Stack as="ul" gap="2" aria-label="Your projects" m="0" p="0">
            {projects.map((project) => (
              <ProjectRow key={project.id} project={project} isOpen={project.id === openId} />
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
