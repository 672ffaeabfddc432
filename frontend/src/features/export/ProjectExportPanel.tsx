import { Button, Card, Separator, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { PROJECT_EXPORT_FORMATS, type ProjectExportFormat } from '@stemdeck/proto/vocabulary';
import { FileJson } from 'lucide-react';
import { useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { toaster } from '../../ui/toaster';
import { AnalysisView } from './AnalysisView';
import { startDownload } from './download';
import { useExportProjectMutation, useProjectAnalysisQuery } from './exportApi';
import { CHOOSE_A_FORMAT, EXPORT_WORDS, failureDescription, PROJECT_FORMAT_HINTS, PROJECT_FORMAT_NAMES } from './exportState';
import { waitingWords } from '../mastering/jobState';
import { useExportPlace } from './useExportPlace';

/**
 * "Project and Analysis": the project's data for other tools (Spotify-style features, the OSC/MIDI map, the
 * TouchDesigner and Resolume kits) as one download (while it waits for the user's other exports, its place in
 * line is said), and the project's own analysis as it is stored.
 */
export function ProjectExportPanel() {
  const project = useAppSelector((state) => state.project.project);
  const [formats, setFormats] = useState<ProjectExportFormat[]>(['spotifyJson']);
  const [lastError, setLastError] = useState<string | null>(null);
  const [exportProject, { isLoading: exporting }] = useExportProjectMutation();
  const place = useExportPlace(project?.id ?? null, exporting);
  const analysisQuery = useProjectAnalysisQuery(project ? { projectId: project.id, analysed: project.bpm !== null } : skipToken, { refetchOnMountOrArgChange: true });
  const analysis = project && analysisQuery.currentData && !analysisQuery.isError ? analysisQuery.currentData : null;

  const blocked = !project ? 'No project selected' : formats.length === 0 ? CHOOSE_A_FORMAT : null;

  const send = async () => {
    if (!project || blocked) return;
    setLastError(null);
    try {
      const ordered = PROJECT_EXPORT_FORMATS.filter((format) => formats.includes(format));
      const answer = await exportProject({ projectId: project.id, formats: ordered }).unwrap();
      startDownload(answer.downloadUrl, answer.filename);
      toaster.create({ ...EXPORT_WORDS.projectDone, description: answer.filename });
    } catch (error) {
      // The toast says only that it failed; the server's reason stays under the button.
      setLastError(failureDescription(EXPORT_WORDS.projectFailed.description, error));
      toaster.create({ ...EXPORT_WORDS.projectFailed });
    }
  };

  const toggle = (format: ProjectExportFormat, on: boolean) => setFormats((chosen) => (on ? [...chosen.filter((f) => f !== format), format] : chosen.filter((f) => f !== format)));

  return (
    <Card.Root data-testid="project-export-panel">
      <Card.Body>
        <Stack gap="4">
          <Text fontWeight="semibold" fontSize="lg">
            Project and Analysis
          </Text>
          <fieldset data-testid="project-formats">
            <legend>
              <Text fontSize="sm">Formats</Text>
            </legend>
            <Stack gap="2" mt="1">
              {PROJECT_EXPORT_FORMATS.map((format) => (
                <label key={format} style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                  <input type="checkbox" checked={formats.includes(format)} onChange={(event) => toggle(format, event.target.checked)} data-testid={`project-format-${format}`} style={{ marginTop: 4 }} />
                  <Stack gap="0">
                    <Text fontSize="sm">{PROJECT_FORMAT_NAMES[format]}</Text>
                    <Text fontSize="xs" color="fg.muted">
                      {PROJECT_FORMAT_HINTS[format]}
                    </Text>
                  </Stack>
                </label>
              ))}
            </Stack>
          </fieldset>
          <Button colorPalette="purple" alignSelf="flex-start" disabled={blocked !== null || exporting} onClick={() => void send()} data-testid="export-project">
            <FileJson />
            {exporting ? 'Exporting...' : 'Export Project Data'}
          </Button>
          {place !== null && (
            <Text fontSize="sm" color="fg.muted" data-testid="export-project-waiting" data-queue-position={place}>
              {waitingWords(place, 'exports')}
            </Text>
          )}
          {blocked === CHOOSE_A_FORMAT && (
            <Text fontSize="sm" color="fg.muted" data-testid="export-project-blocked">
              {blocked}
            </Text>
          )}
          {lastError && !exporting && (
            <Text fontSize="sm" color="fg.error" data-testid="export-project-error">
              {lastError}
            </Text>
          )}
          <Separator />
          <AnalysisView analysis={analysis} note={analysisNote(project !== null, analysisQuery)} />
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** Why the figures are dashes, when they are. */
function analysisNote(hasProject: boolean, query: { isFetching: boolean; isError: boolean; error?: unknown; currentData?: unknown }): string | null {
  if (!hasProject) return 'Open a project to see its analysis.';
  if (query.isFetching && !query.currentData) return 'Reading the analysis...';
  if (!query.isError) return null;
  const status = (query.error as { status?: unknown } | undefined)?.status;
  return status === 404 || status === 409 ? 'This project has no analysis yet. It is made when an uploaded song is split into stems.' : 'The analysis could not be read. Please try again in a moment.';
}
