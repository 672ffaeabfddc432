import { Button, CloseButton, Dialog, Field, Input, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import type { GuestRole } from '@stemdeck/proto';
import { SESSION_NAME_MAX, SESSION_PARTICIPANTS_DEFAULT, SESSION_PARTICIPANTS_MAX, SESSION_PARTICIPANTS_MIN } from '@stemdeck/proto/vocabulary';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useListProjectsQuery } from '../project/projectsApi';

/** A dialog's frame: title, body, close button. */
function SessionDialog({ open, onClose, title, testId, children }: { open: boolean; onClose: () => void; title: string; testId: string; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {children}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

export interface CreateSessionInput {
  name: string;
  projectId: string;
  maxParticipants: number;
}

/** The create form's checks, in the words the server uses; null when it can be sent. */
export function createSessionProblems(input: { name: string; projectId: string; maxParticipants: string }): Partial<Record<'name' | 'projectId' | 'maxParticipants', string>> {
  const problems: Partial<Record<'name' | 'projectId' | 'maxParticipants', string>> = {};
  if (!input.name.trim()) problems.name = 'Session name is required';
  else if (input.name.trim().length > SESSION_NAME_MAX) problems.name = `At most ${SESSION_NAME_MAX} characters`;
  if (!input.projectId) problems.projectId = 'Project is required';
  const max = Number(input.maxParticipants);
  if (input.maxParticipants.trim() === '' || !Number.isInteger(max)) problems.maxParticipants = 'Maximum participants must be a whole number';
  else if (max < SESSION_PARTICIPANTS_MIN) problems.maxParticipants = `Maximum participants must be at least ${SESSION_PARTICIPANTS_MIN}`;
  else if (max > SESSION_PARTICIPANTS_MAX) problems.maxParticipants = `Maximum participants can be at most ${SESSION_PARTICIPANTS_MAX}`;
  return problems;
}

/** "Create Session": a name, one of the person's projects, and how many may take part (2–16, 8 by default). */
export function CreateSessionDialog({ open, onClose, creating, onCreate }: { open: boolean; onClose: () => void; creating: boolean; onCreate: (input: CreateSessionInput) => void }) {
  const { currentData: projects, isFetching, isError } = useListProjectsQuery(undefined, { skip: !open, refetchOnMountOrArgChange: true });
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState('');
  const [maxParticipants, setMaxParticipants] = useState(String(SESSION_PARTICIPANTS_DEFAULT));
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) return;
    setName('');
    setProjectId('');
    setMaxParticipants(String(SESSION_PARTICIPANTS_DEFAULT));
    setTried(false);
  }, [open]);
  const problems = createSessionProblems({ name, projectId, maxParticipants });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(problems).length > 0 || creating) return;
    onCreate({ name: name.trim(), projectId, maxParticipants: Number(maxParticipants) });
  };
  const shown = tried ? problems : {};
  return (
    <SessionDialog open={open} onClose={onClose} title="Create Session" testId="create-session-dialog">
      <form onSubmit={submit} noValidate>
        <Dialog.Body>
          <Stack gap="4">
            <Field.Root invalid={Boolean(shown.name)} required>
              <Field.Label>Session Name</Field.Label>
              <Input placeholder="My Awesome Session" value={name} maxLength={SESSION_NAME_MAX} onChange={(event) => setName(event.target.value)} data-testid="session-name-input" />
              <Field.ErrorText>{shown.name}</Field.ErrorText>
            </Field.Root>
            <Field.Root invalid={Boolean(shown.projectId)} required>
              <Field.Label>Project</Field.Label>
              <NativeSelect.Root disabled={!projects || projects.length === 0}>
                <NativeSelect.Field value={projectId} onChange={(event) => setProjectId(event.target.value)} data-testid="session-project-select">
                  <option value="">{isFetching && !projects ? 'Loading projects...' : 'Choose a project'}</option>
                  {projects?.map((project) => (
                    <option key={project.id} value={project.id}>
                      {project.name}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              {isError && <Field.HelperText>Your projects could not be loaded. Close this and try again.</Field.HelperText>}
              {projects && projects.length === 0 && <Field.HelperText>Upload a song in the studio first: a session plays one of your projects.</Field.HelperText>}
              <Field.ErrorText>{shown.projectId}</Field.ErrorText>
            </Field.Root>
            <Field.Root invalid={Boolean(shown.maxParticipants)}>
              <Field.Label>Maximum Participants</Field.Label>
              <Input
                type="number"
                min={SESSION_PARTICIPANTS_MIN}
                max={SESSION_PARTICIPANTS_MAX}
                step={1}
                value={maxParticipants}
                onChange={(event) => setMaxParticipants(event.target.value)}
                data-testid="session-max-input"
              />
              <Field.HelperText>
                From {SESSION_PARTICIPANTS_MIN} to {SESSION_PARTICIPANTS_MAX}, you included.
              </Field.HelperText>
              <Field.ErrorText>{shown.maxParticipants}</Field.ErrorText>
            </Field.Root>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="purple" disabled={creating} data-testid="create-session-submit">
            {creating ? 'Creating...' : 'Create Session'}
          </Button>
        </Dialog.Footer>
      </form>
    </SessionDialog>
  );
}

/** The session id from what was typed or pasted: the id itself, or an invite link carrying it (?session=). */
export function sessionIdFrom(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  try {
    const url = new URL(trimmed);
    return url.searchParams.get('session')?.trim() ?? '';
  } catch {
    return trimmed;
  }
}

/** "Join Session": by session id or invite link, as a collaborator (plays and mixes) or a viewer (listens and chats). */
export function JoinSessionDialog({
  open,
  onClose,
  initialSessionId,
  joining,
  onJoin,
}: {
  open: boolean;
  onClose: () => void;
  initialSessionId: string;
  joining: boolean;
  onJoin: (sessionId: string, role: GuestRole) => void;
}) {
  const [text, setText] = useState(initialSessionId);
  const [role, setRole] = useState<GuestRole>('collaborator');
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) return;
    setText(initialSessionId);
    setTried(false);
  }, [open, initialSessionId]);
  const sessionId = sessionIdFrom(text);
  const problem = sessionId ? null : 'Enter a session ID or paste an invite link';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem || joining) return;
    onJoin(sessionId, role);
  };
  return (
    <SessionDialog open={open} onClose={onClose} title="Join Session" testId="join-session-dialog">
      <form onSubmit={submit} noValidate>
        <Dialog.Body>
          <Stack gap="4">
            <Text fontSize="sm" color="fg.muted">
              Ask the host for the session ID or its invite link.
            </Text>
            <Field.Root invalid={tried && Boolean(problem)} required>
              <Field.Label>Session ID or invite link</Field.Label>
              <Input value={text} onChange={(event) => setText(event.target.value)} fontFamily="mono" data-testid="join-session-id" />
              <Field.ErrorText>{tried ? problem : null}</Field.ErrorText>
            </Field.Root>
            <Field.Root>
              <Field.Label>Join as</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field value={role} onChange={(event) => setRole(event.target.value as GuestRole)} data-testid="join-session-role">
                  <option value="collaborator">Collaborator: play the pads and mix</option>
                  <option value="viewer">Viewer: listen and chat</option>
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Field.HelperText>If you joined this session before, you keep the role the host gave you.</Field.HelperText>
            </Field.Root>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="purple" disabled={joining} data-testid="join-session-submit">
            {joining ? 'Joining...' : 'Join Session'}
          </Button>
        </Dialog.Footer>
      </form>
    </SessionDialog>
  );
}
