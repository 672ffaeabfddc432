import { Button, Card, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { AUDIO_EXPORT_FORMATS, EXPORT_MASTERINGS, EXPORT_TYPES, type AudioExportFormat, type ExportMastering, type ExportType, type StemType } from '@stemdeck/proto/vocabulary';
import { FileAudio } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { RootState } from '../../app/store';
import { toaster } from '../../ui/toaster';
import { STEM_NAMES } from '../mastering/enhanceState';
import { useProjectBlocker } from '../mastering/useFollowedJob';
import { NO_PROJECT, waitingWords } from '../mastering/jobState';
import { projectsApi } from '../project/projectsApi';
import { startDownload } from './download';
import { useExportAudioMutation, useExportOptionsQuery } from './exportApi';
import { mixFieldsTaken, unsavedMixNote, waitForSavedMix } from './savedMix';
import { AUDIO_FORMAT_NAMES, audioExportBlocker, chosenStems, EXPORT_TYPE_NAMES, EXPORT_WORDS, failureDescription, fellBackToRaw, MASTERING_NAMES, selectedStemIds, variantChoices } from './exportState';
import { LabelledSelect } from '../../ui/LabelledSelect';
import { useExportPlace } from './useExportPlace';


/**
 * "Audio Export": what to export (the full mix, every stem, or the ticked ones), in which format, and which
 * variant (unmastered, the latest master, the latest enhancement, or both). A variant this type and these stems
 * cannot take is disabled with what to run first; when a change of type or stems takes away the chosen one,
 * the unmastered one is selected and the panel says so. Before it is sent, the mixer's latest changes are given
 * a moment to be saved (the export is made from the saved mix). The answer's file downloads by itself; while
 * it waits for the user's other exports to finish, the panel says its place in line.
 */
export function AudioExportPanel() {
  const project = useAppSelector((state) => state.project.project);
  const stems = useAppSelector((state) => state.project.stems);
  const projectBlocked = useProjectBlocker();
  const [exportType, setExportType] = useState<ExportType>('full-mix');
  const [format, setFormat] = useState<AudioExportFormat>('wav-24-48');
  const [mastering, setMastering] = useState<ExportMastering>('raw');
  const [selectedTypes, setSelectedTypes] = useState<StemType[]>([]);
  const [lastError, setLastError] = useState<string | null>(null);
  /** The variant replaced by the unmastered one; cleared when a variant is chosen again. */
  const [fellBackFrom, setFellBackFrom] = useState<ExportMastering | null>(null);
  const { currentData: options } = useExportOptionsQuery(project && !projectBlocked ? project.id : skipToken, { refetchOnMountOrArgChange: true });
  const [exportAudio, { isLoading: sending }] = useExportAudioMutation();
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  /** Waiting for the mixer's latest changes to be saved before the export is sent. */
  const [awaitingSave, setAwaitingSave] = useState(false);
  /** Set when the export went ahead with an older saved mix than the one heard. */
  const [unsavedNote, setUnsavedNote] = useState<string | null>(null);
  const exporting = sending || awaitingSave;
  const place = useExportPlace(project?.id ?? null, sending);

  const choice = { exportType, format, mastering, selectedTypes };
  const variants = variantChoices(options, exportType, chosenStems(choice, stems));
  const blocked = audioExportBlocker(choice, projectBlocked, variants);
  const chosenUnavailable = mastering !== 'raw' && variants !== undefined && !variants[mastering].available;
  // Said while the replaced variant stays unavailable (a later change of stems may offer it again).
  const fellBack = fellBackFrom && variants && !variants[fellBackFrom].available ? fellBackToRaw(fellBackFrom) : null;

  useEffect(() => {
    if (!chosenUnavailable) return;
    setFellBackFrom(mastering);
    setMastering('raw');
  }, [chosenUnavailable, mastering]);

  const chooseVariant = (variant: ExportMastering) => {
    setFellBackFrom(null);
    setMastering(variant);
  };

  const send = async () => {
    if (!project || blocked || exporting) return;
    setLastError(null);
    setUnsavedNote(null);
    setAwaitingSave(true);
    const unsaved = await waitForSavedMix({
      read: () => dispatch(projectsApi.endpoints.projectStems.initiate({ projectId: project.id }, { subscribe: false, forceRefetch: true })).unwrap(),
      shown: () => store.getState().project.stems,
      fields: mixFieldsTaken(exportType, mastering),
    }).finally(() => setAwaitingSave(false));
    if (unsaved.length > 0) setUnsavedNote(unsavedMixNote(unsaved));
    try {
      const answer = await exportAudio({ projectId: project.id, exportType, format, mastering, stems: selectedStemIds(choice, stems) }).unwrap();
      startDownload(answer.downloadUrl, answer.filename);
      toaster.create({ ...EXPORT_WORDS.audioDone, description: answer.filename });
    } catch (error) {
      // The toast says only that it failed; the server's reason stays under the button.
      setLastError(failureDescription(EXPORT_WORDS.audioFailed.description, error));
      toaster.create({ ...EXPORT_WORDS.audioFailed });
    }
  };

  const toggleStem = (type: StemType, on: boolean) => setSelectedTypes((types) => (on ? [...types.filter((t) => t !== type), type] : types.filter((t) => t !== type)));

  return (
    <Card.Root data-testid="audio-export-panel">
      <Card.Body>
        <Stack gap="4">
          <Text fontWeight="semibold" fontSize="lg">
            Audio Export
          </Text>
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <LabelledSelect
              id="export-type"
              label="Export"
              value={exportType}
              onChange={setExportType}
              options={EXPORT_TYPES.map((type) => ({ value: type, label: EXPORT_TYPE_NAMES[type] }))}
            />
            <LabelledSelect
              id="export-format"
              label="Format"
              value={format}
              onChange={setFormat}
              options={AUDIO_EXPORT_FORMATS.map((name) => ({ value: name, label: AUDIO_FORMAT_NAMES[name] }))}
            />
          </SimpleGrid>
          {exportType === 'selected' && (
            <fieldset data-testid="export-stems">
              <legend>
                <Text fontSize="sm">Stems</Text>
              </legend>
              {stems.length === 0 ? (
                <Text fontSize="sm" color="fg.muted">
                  No stems yet
                </Text>
              ) : (
                <HStack gap="4" wrap="wrap">
                  {stems.map((stem) => (
                    <label key={stem.id} style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                      <input type="checkbox" checked={selectedTypes.includes(stem.type)} onChange={(event) => toggleStem(stem.type, event.target.checked)} data-testid={`export-stem-${stem.type}`} />
                      <Text fontSize="sm">{STEM_NAMES[stem.type]}</Text>
                    </label>
                  ))}
                </HStack>
              )}
            </fieldset>
          )}
          <fieldset data-testid="export-mastering">
            <legend>
              <Text fontSize="sm">Version</Text>
            </legend>
            <Stack gap="2" mt="1">
              {EXPORT_MASTERINGS.map((variant) => {
                const availability = variants?.[variant];
                const unavailable = availability !== undefined && !availability.available;
                return (
                  <Stack key={variant} gap="0" data-testid={`variant-${variant}`} data-available={availability ? String(availability.available) : 'unknown'}>
                    <label style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                      <input type="radio" name="export-mastering" value={variant} checked={mastering === variant} disabled={unavailable} onChange={() => chooseVariant(variant)} />
                      <Text fontSize="sm">{MASTERING_NAMES[variant]}</Text>
                    </label>
                    {unavailable && availability.reason && (
                      <Text fontSize="xs" color="fg.muted" ps="6" data-testid={`variant-${variant}-reason`}>
                        {availability.reason}
                      </Text>
                    )}
                  </Stack>
                );
              })}
            </Stack>
            {fellBack && (
              <Text fontSize="sm" mt="2" data-testid="export-mastering-fallback">
                {fellBack}
              </Text>
            )}
          </fieldset>
          <HStack gap="4" wrap="wrap">
            <Button colorPalette="purple" disabled={blocked !== null || exporting} onClick={() => void send()} data-testid="export-audio">
              <FileAudio />
              {exporting ? 'Exporting...' : 'Export Audio'}
            </Button>
          </HStack>
          {place !== null && (
            <Text fontSize="sm" color="fg.muted" data-testid="export-audio-waiting" data-queue-position={place}>
              {waitingWords(place, 'exports')}
            </Text>
          )}
          {blocked && blocked !== NO_PROJECT && !exporting && (
            <Text fontSize="sm" color="fg.muted" data-testid="export-audio-blocked">
              {blocked}
            </Text>
          )}
          {unsavedNote && !exporting && (
            <Text fontSize="sm" color="fg.muted" data-testid="export-audio-unsaved">
              {unsavedNote}
            </Text>
          )}
          {lastError && !exporting && (
            <Text fontSize="sm" color="fg.error" data-testid="export-audio-error">
              {lastError}
            </Text>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
