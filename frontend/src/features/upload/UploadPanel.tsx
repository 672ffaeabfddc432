import { Box, Button, Card, Flex, HStack, IconButton, Progress, Stack, Text } from '@chakra-ui/react';
import { FileAudio, Upload, X } from 'lucide-react';
import { useEffect, useReducer, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { api } from '../../api/api';
import type { Project, SeparationJob } from '../../api/mediaTypes';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ensureAudioContext } from '../../audio/audioContext';
import { formatTime, progressPercent } from '../../lib/format';
import { MARKS } from '../../lib/marks';
import { toaster } from '../../ui/toaster';
import { draggedKind, dropZoneState, pickUpload, type DraggedKind } from './pickUpload';
import { sendUpload } from './sendUpload';
import { initialUploadState, isBusy, sizeInMb, uploadPercent, uploadReducer } from './uploadMachine';

const FORMATS = 'MP3, WAV, FLAC, MP4, MOV, AVI';
const DROP_FORMATS = 'mp3, wav, ogg, m4a, flac, aac, mp4, mov, avi, mkv, webm';

const ZONE_COLORS = {
  idle: 'border.emphasized',
  dialog: 'purple.400',
  'drag-accept': 'purple.500',
  'drag-reject': 'red.500',
} as const;

export interface UploadPanelProps {
  /** Opens the project an upload created (with its separation job, when one was started). */
  openProject: (project: Project, job: SeparationJob | null) => Promise<void>;
}

/**
 * The upload panel: drop or choose one file, send it with real progress, open the new project.
 * With a project open and nothing chosen it folds into a one-line "Upload another" bar (still a drop
 * target), so the timeline and the mixer sit right under it.
 */
export function UploadPanel({ openProject }: UploadPanelProps) {
  const [state, send] = useReducer(uploadReducer, initialUploadState);
  const chosen = useRef<File | null>(null);
  const dispatch = useAppDispatch();
  const busy = isBusy(state);
  const { position, file } = useAppSelector((s) => s.transport);
  const openedProject = useAppSelector((s) => s.project.project);
  const projectOpen = openedProject !== null;
  const compact = projectOpen && state.phase === 'idle';
  /** The upload whose analysis is still to come (its job sends it): announced when the open project has it. */
  const awaitingAnalysis = useRef<{ projectId: string; kind: string } | null>(null);
  useEffect(() => {
    const waiting = awaitingAnalysis.current;
    if (!waiting || openedProject?.id !== waiting.projectId || openedProject.bpm === null) return;
    awaitingAnalysis.current = null;
    toaster.create({
      title: `${waiting.kind} uploaded successfully`,
      description: `Analysis complete: ${openedProject.bpm} BPM, ${openedProject.key}`,
      type: 'success',
    });
  }, [openedProject]);
  const [dragged, setDragged] = useState<DraggedKind>('unknown');
  const duration = file?.duration ?? 0;

  const choose = (files: File[]) => {
    if (busy) return;
    const picked = pickUpload(files);
    if (!picked.ok) {
      toaster.create({ title: picked.title, description: picked.description, type: 'error' });
      return;
    }
    chosen.current = picked.file;
    send({ type: 'select', file: { name: picked.file.name, size: picked.file.size, type: picked.file.type } });
  };

  const zone = useDropzone({
    // The order of a drop matters (its first audio/video file wins), so nothing is filtered here;
    // pickUpload applies the rules. The dialog still offers audio and video only.
    onDrop: (accepted, rejected) => choose([...accepted, ...rejected.map((r) => r.file)]),
    // Types are known during a drag (names only on drop): a drag with no audio or video shows "reject" at once.
    onDragEnter: (event) => setDragged(draggedKind(event.dataTransfer?.items)),
    noClick: true,
    noKeyboard: true,
    multiple: true,
    disabled: busy,
  });
  const zoneState = dropZoneState({ ...zone, isDragReject: zone.isDragActive && dragged === 'other' });

  const upload = async () => {
    const selected = chosen.current;
    if (!selected || state.phase !== 'selected') return;
    send({ type: 'start' });
    // This click is a user gesture: the audio context starts now, warm and running when the stems land.
    try {
      ensureAudioContext();
    } catch {
      // Play reports "Audio Context Error" if it still cannot be created
    }
    try {
      const answer = await sendUpload(selected, {
        onProgress: (loaded, total) => send({ type: 'progress', loaded, total }),
        onSent: () => {
          performance.mark(MARKS.uploadSent);
          send({ type: 'sent' });
        },
      });
      send({ type: 'succeeded' });
      chosen.current = null;
      dispatch(api.util.invalidateTags(['Projects']));
      // The toast waits for the analysis, which the project's job sends once it has decoded the recording.
      awaitingAnalysis.current = { projectId: answer.project.id, kind: answer.project.source === 'video' ? 'Video' : 'Audio' };
      await openProject(answer.project, answer.job);
    } catch (error) {
      send({ type: 'failed' });
      toaster.create({ title: 'Upload failed', description: (error as Error).message, type: 'error' });
    }
  };

  const playhead = (
    <Flex align="center" gap="4" flex="1" minW="48">
      <Box flex="1" minW="20">
        <Box h="1.5" bg="bg.muted" rounded="full" overflow="hidden">
          <Box h="full" bg="purple.500" style={{ width: `${progressPercent(position, duration)}%` }} data-testid="progress-strip" />
        </Box>
      </Box>
      <Text fontSize="sm" fontFamily="mono" data-testid="time-readout">
        {formatTime(position)} / {formatTime(duration)}
      </Text>
    </Flex>
  );
  const fileInput = <input {...zone.getInputProps({ accept: 'audio/*,video/*', multiple: false })} data-testid="file-input" />;

  if (compact) {
    return (
      <Card.Root data-testid="upload-panel" data-compact="true">
        <Card.Body py="3">
          <Flex
            {...zone.getRootProps()}
            data-testid="drop-zone"
            data-state={zoneState}
            align="center"
            gap="3"
            wrap="wrap"
            borderWidth="2px"
            borderStyle="dashed"
            borderColor={zoneState === 'idle' ? 'transparent' : ZONE_COLORS[zoneState]}
            bg={zoneState === 'drag-accept' ? 'purple.subtle' : zoneState === 'drag-reject' ? 'red.subtle' : undefined}
            rounded="md"
            px="2"
            py="1"
          >
            {fileInput}
            <Button size="sm" variant="outline" onClick={zone.open}>
              <Upload /> Upload another
            </Button>
            <Text fontSize="sm" color="fg.muted" display={{ base: 'none', md: 'block' }}>
              {zone.isDragActive ? (zoneState === 'drag-reject' ? 'Only audio or video files' : 'Drop it here') : 'or drop an audio or video file here'}
            </Text>
            {playhead}
          </Flex>
        </Card.Body>
      </Card.Root>
    );
  }

  return (
    <Card.Root data-testid="upload-panel">
      <Card.Body gap="4">
        <Box
          {...zone.getRootProps()}
          data-testid="drop-zone"
          data-state={zoneState}
          borderWidth="2px"
          borderStyle="dashed"
          borderColor={ZONE_COLORS[zoneState]}
          bg={zoneState === 'drag-accept' ? 'purple.subtle' : zoneState === 'drag-reject' ? 'red.subtle' : undefined}
          rounded="lg"
          p="8"
          textAlign="center"
          transition="background 120ms, border-color 120ms"
        >
          {fileInput}
          <Stack align="center" gap="2">
            <Upload color="var(--chakra-colors-purple-400)" />
            <Text fontWeight="medium">
              {zone.isDragActive ? (zoneState === 'drag-reject' ? 'Only audio or video files can be split' : 'Drop it here') : 'Drag and drop your audio or video file'}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {FORMATS}
            </Text>
            <Text fontSize="xs" color="fg.subtle">
              {DROP_FORMATS} · Max 500MB
            </Text>
            <Button size="sm" variant="outline" onClick={zone.open} disabled={busy}>
              Choose File
            </Button>
          </Stack>
        </Box>

        {state.phase !== 'idle' && (
          <HStack borderWidth="1px" rounded="md" px="3" py="2" data-testid="selected-file">
            <FileAudio size={18} />
            <Box flex="1" minW="0">
              <Text fontSize="sm" truncate>
                {state.file.name}
              </Text>
              <Text fontSize="xs" color="fg.muted">
                {sizeInMb(state.file.size)}
              </Text>
            </Box>
            <IconButton aria-label="Remove file" size="xs" variant="ghost" disabled={busy} onClick={() => send({ type: 'remove' })}>
              <X />
            </IconButton>
          </HStack>
        )}

        {busy && (
          <Stack gap="1" data-testid="upload-progress">
            <Text fontSize="sm">Processing your music...</Text>
            <Progress.Root value={uploadPercent(state)} size="sm" colorPalette="purple">
              <Progress.Track>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
            <Text fontSize="xs" color="fg.muted">
              {state.phase === 'uploading' ? `Uploading ${uploadPercent(state)}%` : 'Checking the file'}
            </Text>
          </Stack>
        )}

        <Flex align="center" gap="4" wrap="wrap">
          <Button colorPalette="purple" disabled={state.phase !== 'selected'} loading={busy} loadingText="Processing..." onClick={() => void upload()}>
            Split into Stems
          </Button>
          {playhead}
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
