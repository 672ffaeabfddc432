/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { Project } from '../../api/mediaTypes';
import { installFakeFetch } from '../../api/testing/fakeFetch.harness';
import { createStore } from '../../app/store';
import { toaster } from '../../ui/toaster';
import { jobProgressed, projectOpened, stemChanged, stemsLoaded } from '../project/projectSlice';
import { normalizeStems } from '../project/stems';
import type { ExportOptions, ProjectAnalysis } from './exportApi';
import { ExportSection } from './ExportSection';

const PROJECT: Project = { id: 'p1', name: 'song', originalFile: 'song.wav', duration: 40, bpm: 98, key: 'A minor', source: 'audio', activeEngine: 'fast', createdAt: '2026-11-23T16:00:00.000Z' };
const STEMS = normalizeStems((['vocals', 'drums', 'bass', 'other'] as const).map((type) => ({ id: `p1-fast-${type}`, type, engine: 'fast' as const, url: `/api/stems/p1-fast-${type}/audio` })));
const OPTIONS: ExportOptions = {
  projectId: 'p1',
  variants: {
    raw: { available: true, reason: null },
    landr: { available: false, reason: 'Master this project in AI Mastering first.' },
    dolby: { available: true, reason: null },
    both: { available: false, reason: 'Master this project in AI Mastering first.' },
  },
  enhancedStemIds: ['p1-fast-vocals', 'p1-fast-bass'],
  masteredStemTypes: [],
};
/** A full-mix master exists (the server offers Mastered), no per-stem master; vocals and bass are enhanced. */
const MIX_MASTERED: ExportOptions = { ...OPTIONS, variants: { raw: OPTIONS.variants.raw, landr: { available: true, reason: null }, dolby: OPTIONS.variants.dolby, both: { available: true, reason: null } } };
const ANALYSIS: ProjectAnalysis = {
  loudnessLufs: -11.04,
  spotifyFeatures: { danceability: 0.52, energy: 0.66, valence: 0.2, acousticness: 0.08, instrumentalness: 0.93, liveness: 0.12, speechiness: 0.04, loudness: -11, tempo: 98.04, key: 9, mode: 0, time_signature: 4, duration_ms: 40_000 },
};
const ANSWER = { id: 'x1', filename: 'song - full mix.wav', downloadUrl: '/api/exports/x1/download', expiresAt: '2026-11-24T16:00:00.000Z' };

let server: ReturnType<typeof installFakeFetch>;
let toasts: Array<{ title?: unknown; description?: unknown; type?: unknown }>;
let clicked: Array<{ href: string; download: string }>;

beforeEach(() => {
  server = installFakeFetch();
  server.answer('GET', '/api/projects/p1/export-options', { status: 200, body: OPTIONS });
  server.answer('GET', '/api/projects/p1/analysis', { status: 200, body: ANALYSIS });
  server.answer('GET', '/api/projects/p1/share-links', { status: 200, body: [] });
  server.answer('GET', '/api/projects/p1/stems', { status: 200, body: STEMS });
  server.answer('GET', '/api/projects/p1/exports', { status: 200, body: [] });
  toasts = [];
  jest.spyOn(toaster, 'create').mockImplementation((toast) => {
    toasts.push(toast);
    return 'toast';
  });
  clicked = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute('href')!, download: this.download });
  });
});
afterEach(() => {
  server.restore();
  jest.restoreAllMocks();
});

async function renderSection({ project = PROJECT as Project | null, separating = false } = {}) {
  const store = createStore();
  if (project) {
    store.dispatch(projectOpened(project));
    if (separating) store.dispatch(jobProgressed({ engine: 'fast', progress: 0.4 }));
    else store.dispatch(stemsLoaded({ stems: STEMS, partialSeconds: null }));
  }
  await act(async () =>
    void render(
      <Provider store={store}>
        <ChakraProvider value={defaultSystem}>
          <ExportSection />
        </ChakraProvider>
      </Provider>,
    ),
  );
  return store;
}

const button = (testId: string) => screen.getByTestId(testId) as HTMLButtonElement;
const radio = (variant: string) => screen.getByTestId(`variant-${variant}`).querySelector('input') as HTMLInputElement;
/** The figures shown where the analysis is absent by a player that makes them up. */
const SAMPLE_DEFAULTS = ['125.4', 'F♯ minor', 'F# minor', '0.73', '0.84', '0.46'];
const value = (id: string) => screen.getByTestId(`analysis-${id}-value`).textContent;

describe('Export & Share: audio export', () => {
  it('offers the types and formats in plain words, full mix as WAV 24-bit by default', async () => {
    await renderSection();
    const formats = Array.from((screen.getByLabelText('Format') as HTMLSelectElement).options).map((option) => option.text);
    expect(formats).toEqual(['WAV 24-bit / 48 kHz', 'WAV 16-bit / 44.1 kHz (dithered)', 'AIFF 24-bit / 48 kHz', 'MP3 320 kbps', 'FLAC (lossless)']);
    const types = Array.from((screen.getByLabelText('Export') as HTMLSelectElement).options).map((option) => option.text);
    expect(types).toEqual(['Individual stems', 'Full mix', 'Selected stems']);
    expect((screen.getByLabelText('Export') as HTMLSelectElement).value).toBe('full-mix');
    expect(button('export-audio').textContent).toBe('Export Audio');
    expect(button('export-audio').disabled).toBe(false);
  });

  it('shows which versions exist: the missing ones disabled with what to run first', async () => {
    await renderSection();
    await waitFor(() => expect(screen.getByTestId('variant-landr').getAttribute('data-available')).toBe('false'));
    expect(radio('raw').disabled).toBe(false);
    expect(radio('raw').checked).toBe(true);
    expect(radio('dolby').disabled).toBe(false);
    expect(radio('landr').disabled).toBe(true);
    expect(radio('both').disabled).toBe(true);
    expect(screen.getByTestId('variant-landr-reason').textContent).toBe('Master this project in AI Mastering first.');
    expect(screen.getByTestId('variant-both-reason').textContent).toBe('Master this project in AI Mastering first.');
    expect(screen.queryByTestId('variant-dolby-reason')).toBeNull();
  });

  it('says "No project selected" once and nothing can be exported or shared', async () => {
    await renderSection({ project: null });
    expect(screen.getAllByText('No project selected')).toHaveLength(1);
    expect(button('export-audio').disabled).toBe(true);
    expect(button('export-project').disabled).toBe(true);
    expect(button('create-share-link').disabled).toBe(true);
    expect(server.sent).toEqual([]);
  });

  it('waits for the whole stems while the project is still being separated', async () => {
    await renderSection({ separating: true });
    expect(button('export-audio').disabled).toBe(true);
    expect(screen.getByTestId('export-audio-blocked').textContent).toMatch(/still being separated/);
  });

  it('offers Mastered stems only with a per-stem master, and falls back to Unmastered where a change takes the choice away', async () => {
    server.answer('GET', '/api/projects/p1/export-options', { status: 200, body: MIX_MASTERED });
    await renderSection();
    await waitFor(() => expect(radio('landr').disabled).toBe(false));
    fireEvent.click(radio('landr'));
    expect(radio('landr').checked).toBe(true);

    // Every stem: a full-mix master is no master of the stems.
    fireEvent.change(screen.getByLabelText('Export'), { target: { value: 'individual' } });
    await waitFor(() => expect(radio('raw').checked).toBe(true));
    expect(radio('landr').disabled).toBe(true);
    expect(radio('both').disabled).toBe(true);
    expect(radio('dolby').disabled).toBe(false);
    expect(screen.getByTestId('variant-landr-reason').textContent).toBe('Needs a per-stem master — run AI Mastering with Per stem first');
    expect(screen.getByTestId('export-mastering-fallback').textContent).toBe('Mastered is not available for this choice, so Unmastered is selected instead.');
    expect(button('export-audio').disabled).toBe(false);

    // Ticked stems: Enhanced while every ticked stem has an enhanced version.
    fireEvent.change(screen.getByLabelText('Export'), { target: { value: 'selected' } });
    fireEvent.click(screen.getByTestId('export-stem-vocals'));
    fireEvent.click(radio('dolby'));
    expect(radio('dolby').checked).toBe(true);
    expect(screen.queryByTestId('export-mastering-fallback')).toBeNull();
    expect(screen.getByTestId('variant-landr-reason').textContent).toBe('Needs a per-stem master of every chosen stem — run AI Mastering with Per stem first');
    fireEvent.click(screen.getByTestId('export-stem-drums'));
    await waitFor(() => expect(radio('raw').checked).toBe(true));
    expect(radio('dolby').disabled).toBe(true);
    expect(screen.getByTestId('variant-dolby-reason').textContent).toBe('Needs an enhanced version of every chosen stem — run Enhance stems in AI Mastering first');
    expect(screen.getByTestId('export-mastering-fallback').textContent).toBe('Enhanced is not available for this choice, so Unmastered is selected instead.');
    // Drums unticked: Enhanced can be chosen again, so the note goes; Unmastered stays chosen.
    fireEvent.click(screen.getByTestId('export-stem-drums'));
    expect(radio('dolby').disabled).toBe(false);
    expect(radio('raw').checked).toBe(true);
    expect(screen.queryByTestId('export-mastering-fallback')).toBeNull();

    // The full mix takes the master again; what is sent is what the panel shows.
    fireEvent.change(screen.getByLabelText('Export'), { target: { value: 'full-mix' } });
    expect(radio('landr').disabled).toBe(false);
    expect(radio('raw').checked).toBe(true);
    server.answer('POST', '/api/export/audio', { status: 200, body: ANSWER });
    await act(async () => void fireEvent.click(button('export-audio')));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(server.sent.find((request) => request.method === 'POST')?.body).toMatchObject({ exportType: 'full-mix', mastering: 'raw' });
  });

  it('sends a full mix only once the mixer\'s latest change is saved, reading "Exporting..." meanwhile', async () => {
    const store = await renderSection();
    // Heard at once, saved a moment later: the server still has the old volume when Export is pressed.
    act(() => void store.dispatch(stemChanged({ id: 'p1-fast-vocals', changes: { volume: -6, muted: true } })));
    const saved = STEMS.map((stem) => (stem.type === 'vocals' ? { ...stem, volume: -6, muted: true } : stem));
    server.answer('GET', '/api/projects/p1/stems', { status: 200, body: STEMS }, { status: 200, body: STEMS }, { status: 200, body: saved });
    server.answer('POST', '/api/export/audio', { status: 200, body: ANSWER });
    await act(async () => void fireEvent.click(button('export-audio')));
    expect(button('export-audio').textContent).toBe('Exporting...');
    expect(button('export-audio').disabled).toBe(true);
    await waitFor(() => expect(toasts).toHaveLength(1));
    const reads = server.sent.filter((request) => request.method === 'GET' && request.path === '/api/projects/p1/stems');
    expect(reads).toHaveLength(3);
    // The export went after the read that found the change saved, not before.
    const lastRead = server.sent.lastIndexOf(reads.at(-1)!);
    const post = server.sent.findIndex((request) => request.method === 'POST');
    expect(post).toBeGreaterThan(lastRead);
    expect(screen.queryByTestId('export-audio-unsaved')).toBeNull();
    expect(clicked).toEqual([{ href: '/api/exports/x1/download', download: 'song - full mix.wav' }]);
  });

  it('exports the ticked stems only: none ticked cannot be sent', async () => {
    await renderSection();
    fireEvent.change(screen.getByLabelText('Export'), { target: { value: 'selected' } });
    expect(button('export-audio').disabled).toBe(true);
    expect(screen.getByTestId('export-audio-blocked').textContent).toBe('Choose at least one stem to export.');
    fireEvent.click(screen.getByTestId('export-stem-bass'));
    fireEvent.click(screen.getByTestId('export-stem-vocals'));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'flac' } });
    fireEvent.click(radio('dolby'));
    server.answer('POST', '/api/export/audio', { status: 200, body: { ...ANSWER, filename: 'song - stems.zip' } });
    await act(async () => void fireEvent.click(button('export-audio')));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(server.sent.find((request) => request.method === 'POST')?.body).toEqual({ projectId: 'p1', exportType: 'selected', format: 'flac', mastering: 'dolby', stems: ['p1-fast-vocals', 'p1-fast-bass'] });
  });

  it('reads Exporting... while the file is made, then downloads it by itself and says "Export ready!"', async () => {
    await renderSection();
    server.answer('POST', '/api/export/audio', { status: 200, body: ANSWER });
    server.hold('POST', '/api/export/audio');
    await act(async () => void fireEvent.click(button('export-audio')));
    await waitFor(() => expect(button('export-audio').textContent).toBe('Exporting...'));
    expect(button('export-audio').disabled).toBe(true);
    expect(clicked).toEqual([]);
    await act(async () => server.release('POST', '/api/export/audio'));
    await waitFor(() => expect(button('export-audio').textContent).toBe('Export Audio'));
    expect(clicked).toEqual([{ href: '/api/exports/x1/download', download: 'song - full mix.wav' }]);
    expect(toasts).toEqual([{ title: 'Export ready!', description: 'song - full mix.wav', type: 'success' }]);
    expect(server.sent.find((request) => request.method === 'POST')?.body).toEqual({ projectId: 'p1', exportType: 'full-mix', format: 'wav-24-48', mastering: 'raw', stems: [] });
  });

  it("says the export's place in line while it waits for the user's other exports, then downloads it as usual", async () => {
    await renderSection();
    const waiting = { id: 'x1', projectId: 'p1', kind: 'audio', status: 'processing', progress: 0, filename: 'song - full mix.wav', createdAt: '2026-11-24T10:00:00.000Z', expiresAt: '2026-11-25T10:00:00.000Z', queuePosition: 2 };
    server.answer('GET', '/api/projects/p1/exports', { status: 200, body: [waiting] });
    server.answer('POST', '/api/export/audio', { status: 200, body: ANSWER });
    server.hold('POST', '/api/export/audio');
    await act(async () => void fireEvent.click(button('export-audio')));
    await waitFor(() => expect(screen.getByTestId('export-audio-waiting').textContent).toBe('Waiting for your other exports to finish: 2nd in line'));
    expect(button('export-audio').textContent).toBe('Exporting...');
    // Its turn comes: it is being built, the words go.
    server.answer('GET', '/api/projects/p1/exports', { status: 200, body: [{ ...waiting, queuePosition: undefined }] });
    await waitFor(() => expect(screen.queryByTestId('export-audio-waiting')).toBeNull());
    await act(async () => server.release('POST', '/api/export/audio'));
    await waitFor(() => expect(clicked).toEqual([{ href: '/api/exports/x1/download', download: 'song - full mix.wav' }]));
    expect(screen.queryByTestId('export-audio-waiting')).toBeNull();
  });

  it('toasts "Export failed" / "Failed to export audio files", with the server\'s reason under the button', async () => {
    await renderSection();
    server.answer('POST', '/api/export/audio', { status: 409, body: { message: 'This project has no completed master yet. Run AI Mastering first.' } }, { status: 500, body: { message: 'Internal server error', errorId: 'e1' } });
    await act(async () => void fireEvent.click(button('export-audio')));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]).toEqual({ title: 'Export failed', description: 'Failed to export audio files', type: 'error' });
    expect(screen.getByTestId('export-audio-error').textContent).toBe('Failed to export audio files: This project has no completed master yet. Run AI Mastering first.');
    await act(async () => void fireEvent.click(button('export-audio')));
    await waitFor(() => expect(toasts).toHaveLength(2));
    expect(toasts[1]).toEqual({ title: 'Export failed', description: 'Failed to export audio files', type: 'error' });
    expect(screen.getByTestId('export-audio-error').textContent).toBe('Failed to export audio files');
    expect(clicked).toEqual([]);
  });
});

describe('Export & Share: project data and the analysis view', () => {
  it('exports the ticked formats in a fixed order and says "Project exported!"', async () => {
    await renderSection();
    expect((screen.getByTestId('project-format-spotifyJson') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId('project-format-resolume'));
    fireEvent.click(screen.getByTestId('project-format-touchdesigner'));
    server.answer('POST', '/api/export/project', { status: 200, body: { ...ANSWER, filename: 'song - project data.zip', downloadUrl: '/api/exports/x2/download' } });
    await act(async () => void fireEvent.click(button('export-project')));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(server.sent.find((request) => request.method === 'POST')?.body).toEqual({ projectId: 'p1', formats: ['spotifyJson', 'touchdesigner', 'resolume'] });
    expect(toasts[0]).toEqual({ title: 'Project exported!', description: 'song - project data.zip', type: 'success' });
    expect(clicked).toEqual([{ href: '/api/exports/x2/download', download: 'song - project data.zip' }]);
  });

  it('cannot export with no format ticked; a failure toasts "Failed to export project data", the reason under the button', async () => {
    await renderSection();
    fireEvent.click(screen.getByTestId('project-format-spotifyJson'));
    expect(button('export-project').disabled).toBe(true);
    expect(screen.getByTestId('export-project-blocked').textContent).toBe('Choose at least one format.');
    fireEvent.click(screen.getByTestId('project-format-oscMidiConfig'));
    server.answer('POST', '/api/export/project', { status: 409, body: { message: 'This project has no analysis yet' } }, { status: 500, body: { statusCode: 500, message: 'Internal server error', errorId: 'e2' } });
    await act(async () => void fireEvent.click(button('export-project')));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]).toEqual({ title: 'Export failed', description: 'Failed to export project data', type: 'error' });
    expect(screen.getByTestId('export-project-error').textContent).toBe('Failed to export project data: This project has no analysis yet');
    await act(async () => void fireEvent.click(button('export-project')));
    await waitFor(() => expect(toasts).toHaveLength(2));
    expect(toasts[1]).toEqual({ title: 'Export failed', description: 'Failed to export project data', type: 'error' });
    expect(screen.getByTestId('export-project-error').textContent).toBe('Failed to export project data');
  });

  it("shows the project's stored analysis", async () => {
    await renderSection();
    await waitFor(() => expect(screen.getByTestId('analysis-view').getAttribute('data-analysed')).toBe('true'));
    expect(value('tempo')).toBe('98.0 BPM');
    expect(value('key')).toBe('A minor');
    expect(value('loudness')).toBe('-11.0 LUFS');
    expect(value('time-signature')).toBe('4/4');
    expect(value('danceability')).toBe('0.52');
    expect(value('energy')).toBe('0.66');
    expect(value('valence')).toBe('0.20');
    expect(value('acousticness')).toBe('0.08');
    expect(value('instrumentalness')).toBe('0.93');
    expect(value('liveness')).toBe('0.12');
    expect(value('speechiness')).toBe('0.04');
    expect(screen.queryByTestId('analysis-note')).toBeNull();
    for (const sample of SAMPLE_DEFAULTS) expect(document.body.textContent).not.toContain(sample);
  });

  it('shows dashes, not sample figures, for a project without analysis, and says why', async () => {
    server.answer('GET', '/api/projects/p1/analysis', { status: 404, body: { message: 'This project has no analysis (no audio was uploaded)' } });
    await renderSection();
    await waitFor(() => expect(screen.getByTestId('analysis-note').textContent).toMatch(/no analysis yet/));
    for (const id of ['tempo', 'key', 'loudness', 'time-signature', 'danceability', 'energy', 'valence', 'acousticness', 'instrumentalness', 'liveness', 'speechiness']) expect(value(id)).toBe('—');
    // Nowhere on the page, in either spelling of the sharp.
    for (const sample of SAMPLE_DEFAULTS) expect(document.body.textContent).not.toContain(sample);
  });
});
