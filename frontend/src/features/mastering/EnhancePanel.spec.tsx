/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { Project } from '../../api/mediaTypes';
import { createStore } from '../../app/store';
import { jobProgressed, projectOpened, stemsLoaded } from '../project/projectSlice';
import { normalizeStems } from '../project/stems';
import { jobsApi, type Job } from './jobsApi';
import { MasteringPanel } from './MasteringPanel';

const PROJECT: Project = { id: 'p1', name: 'song', originalFile: 'song.wav', duration: 40, bpm: 120, key: 'A minor', source: 'audio', activeEngine: 'fast', createdAt: '2026-11-23T16:00:00.000Z' };
const STEMS = normalizeStems((['vocals', 'drums', 'bass', 'other'] as const).map((type) => ({ id: `p1-fast-${type}`, type, engine: 'fast' as const, url: `/api/stems/p1-fast-${type}/audio` })));
const figures = (integratedLufs: number) => ({ integratedLufs, lra: 4.2, truePeakDbtp: -1.5 });
const enhanceJob = (job: Partial<Job>): Job => ({ id: 'e1', projectId: 'p1', type: 'enhance', provider: 'local', status: 'processing', progress: 0, createdAt: '2026-11-23T16:05:00.000Z', ...job });

/** The AI Mastering section (both panels) on a store with `project` open, its stems whole or only the first seconds, and the project's jobs cached. */
async function renderSection({ project = PROJECT as Project | null, partialSeconds = null as number | null, separating = false, jobs = [] as Job[] } = {}) {
  const store = createStore();
  if (project) {
    store.dispatch(projectOpened(project));
    if (separating) store.dispatch(jobProgressed({ engine: 'fast', progress: 0.4 }));
    if (partialSeconds !== null || !separating) store.dispatch(stemsLoaded({ stems: STEMS, partialSeconds }));
    await store.dispatch(jobsApi.util.upsertQueryData('projectJobs', project.id, jobs));
    for (const job of jobs) await store.dispatch(jobsApi.util.upsertQueryData('getJob', job.id, job));
  }
  await act(async () =>
    void render(
    <Provider store={store}>
      <ChakraProvider value={defaultSystem}>
        <MasteringPanel />
      </ChakraProvider>
    </Provider>,
    ),
  );
  return store;
}

const startEnhance = () => screen.getByTestId('start-enhance') as HTMLButtonElement;
const toggle = (testId: string) => ({ checked: screen.getByTestId(testId).getAttribute('aria-pressed') === 'true' });
/** Flips a switch as a click on it does. */
const flip = (testId: string) => fireEvent.click(screen.getByTestId(testId));

describe('the Enhance panel', () => {
  it("lists the project's masters and enhancements, not its music videos", async () => {
    const video = { ...enhanceJob({ id: 'v1', status: 'completed', progress: 100 }), type: 'video' as const };
    await renderSection({ jobs: [video, enhanceJob({ id: 'e2', status: 'completed', progress: 100 })] });
    const listed = screen.getAllByTestId('mastering-job').map((row) => row.getAttribute('data-type'));
    expect(listed).toEqual(['enhance']);
  });

  it('offers the three enhancements and four stems in plain words, noise reduction on the vocals by default', async () => {
    await renderSection();
    for (const name of ['Noise reduction', 'Loudness normalization', 'Speech enhancement', 'Vocals', 'Drums', 'Bass', 'Other']) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(toggle('enhancement-noiseReduction').checked).toBe(true);
    expect(toggle('enhancement-loudnessNormalization').checked).toBe(false);
    expect(toggle('enhancement-speechEnhancement').checked).toBe(false);
    expect(toggle('target-vocals').checked).toBe(true);
    expect(['drums', 'bass', 'other'].map((type) => toggle(`target-${type}`).checked)).toEqual([false, false, false]);
    expect(startEnhance().textContent).toBe('Start Enhancement');
    expect(startEnhance().disabled).toBe(false);
    expect(screen.queryByTestId('enhance-blocked')).toBeNull();
  });

  it('cannot start with no enhancement or no stem chosen, and says which is missing', async () => {
    await renderSection();
    flip('enhancement-noiseReduction');
    expect(startEnhance().disabled).toBe(true);
    expect(screen.getByTestId('enhance-blocked').textContent).toBe('Choose at least one enhancement.');
    flip('enhancement-speechEnhancement');
    expect(startEnhance().disabled).toBe(false);
    flip('target-vocals');
    expect(startEnhance().disabled).toBe(true);
    expect(screen.getByTestId('enhance-blocked').textContent).toBe('Choose at least one stem to enhance.');
  });

  it('says "No project selected" once, and neither Start can be pressed', async () => {
    await renderSection({ project: null });
    expect(screen.getAllByText('No project selected')).toHaveLength(1);
    expect(startEnhance().disabled).toBe(true);
    expect((screen.getByTestId('start-mastering') as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    ['no stems yet', { separating: true }],
    ['only the first seconds', { separating: true, partialSeconds: 10 }],
  ])('waits for the whole stems (%s): both Starts disabled, saying so', async (_case, state) => {
    await renderSection(state);
    for (const kind of ['enhance', 'mastering']) {
      expect((screen.getByTestId(`start-${kind}`) as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByTestId(`${kind}-blocked`).textContent).toMatch(/still being separated/);
    }
  });

  it('shows a running enhancement: Processing..., its progress, Cancel; the mastering Start stays free', async () => {
    await renderSection({ jobs: [enhanceJob({ progress: 37 })] });
    expect(startEnhance().textContent).toBe('Processing...');
    expect(startEnhance().disabled).toBe(true);
    expect(screen.getByTestId('enhance-progress').getAttribute('data-progress')).toBe('37');
    expect(screen.getByTestId('cancel-enhance').textContent).toContain('Cancel');
    expect((screen.getByTestId('start-mastering') as HTMLButtonElement).textContent).toBe('Start Mastering');
    expect(screen.queryByTestId('mastering-progress')).toBeNull();
  });

  it("shows an enhancement waiting behind the user's other jobs: Waiting..., its place in line instead of a progress, Cancel; the list says it too", async () => {
    await renderSection({ jobs: [enhanceJob({ queuePosition: 2 })] });
    expect(startEnhance().textContent).toBe('Waiting...');
    expect(startEnhance().disabled).toBe(true);
    expect(screen.getByTestId('enhance-waiting').textContent).toBe('Waiting for your other jobs to finish: 2nd in line');
    expect(screen.queryByTestId('enhance-progress')).toBeNull();
    expect(screen.getByTestId('cancel-enhance').textContent).toContain('Cancel');
    expect(screen.getAllByTestId('mastering-job')[0]!.textContent).toContain('waiting · 2nd in line');
  });

  it('shows a finished enhancement: each stem before and after, its download, who did it, and the mixer note', async () => {
    const done = enhanceJob({
      status: 'completed',
      progress: 100,
      result: {
        outputs: [
          { name: 'drums.flac', url: '/api/jobs/e1/outputs/drums.flac', stemType: 'drums', before: figures(-22.04), after: figures(-16) },
          { name: 'vocals.flac', url: '/api/jobs/e1/outputs/vocals.flac', stemType: 'vocals', before: figures(-19.96), after: figures(-16.04) },
        ],
      },
    });
    await renderSection({ jobs: [done] });
    expect(screen.getByTestId('enhance-provider').textContent).toBe('Enhanced locally');
    expect(screen.getByTestId('enhance-figures-vocals-before').textContent).toBe('VocalsBefore-20.0 LUFS4.2 LU-1.5 dBTP Download');
    expect(screen.getByTestId('enhance-figures-vocals-after').textContent).toBe('After-16.0 LUFS4.2 LU-1.5 dBTP');
    expect(screen.getByTestId('enhance-figures-drums-before').textContent).toContain('-22.0 LUFS');
    expect(screen.getByTestId('download-enhanced-vocals').getAttribute('href')).toBe('/api/jobs/e1/outputs/vocals.flac');
    expect(screen.getByTestId('download-enhanced-drums').getAttribute('download')).toBe('drums.flac');
    expect(screen.getByTestId('enhance-mixer-note').textContent).toMatch(/mixer now plays the enhanced stems.*original/i);
    expect(startEnhance().textContent).toBe('Start Enhancement');
  });

  it('names a cloud provider when one did the work', async () => {
    await renderSection({ jobs: [enhanceJob({ status: 'completed', progress: 100, provider: 'dolby', result: { outputs: [] } })] });
    expect(screen.getByTestId('enhance-provider').textContent).toBe('Enhanced by Dolby.io');
  });

  it('lists masters and enhancements in the job list with kind, provider and status; a failed one says why', async () => {
    const master: Job = { ...enhanceJob({}), id: 'm1', type: 'mastering', status: 'failed', error: 'Cancelled' };
    await renderSection({ jobs: [enhanceJob({ status: 'completed', progress: 100, result: { outputs: [] } }), master] });
    const rows = screen.getAllByTestId('mastering-job');
    expect(rows.map((row) => [row.getAttribute('data-type'), row.getAttribute('data-status')])).toEqual([
      ['enhance', 'completed'],
      ['mastering', 'failed'],
    ]);
    expect(rows[0]!.textContent).toContain('Enhancement');
    expect(rows[0]!.textContent).toContain('Local engine');
    expect(rows[1]!.textContent).toContain('Master');
    expect(rows[1]!.textContent).toContain('Cancelled');
  });

  it('lists every output of a per-stem master with its own download, the comparison on the sum', async () => {
    const master: Job = {
      ...enhanceJob({}),
      id: 'm2',
      type: 'mastering',
      status: 'completed',
      progress: 100,
      result: {
        outputs: ['vocals.flac', 'drums.flac', 'mix.flac'].map((name) => ({ name, url: `/api/jobs/m2/outputs/${name}` })),
        before: figures(-20),
        after: figures(-14),
      },
    };
    await renderSection({ jobs: [master] });
    expect(screen.getAllByTestId('master-output')).toHaveLength(3);
    expect(screen.getByTestId('download-master').getAttribute('href')).toBe('/api/jobs/m2/outputs/mix.flac');
    expect(screen.getByTestId('download-vocals.flac').getAttribute('href')).toBe('/api/jobs/m2/outputs/vocals.flac');
    expect(screen.getByTestId('mastering-provider').textContent).toBe('Mastered locally');
  });
});
