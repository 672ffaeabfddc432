/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { VIDEO_DEFAULT_PROMPT } from '@stemdeck/proto/vocabulary';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { Project } from '../../../api/mediaTypes';
import { installFakeFetch } from '../../../api/testing/fakeFetch.harness';
import { createStore } from '../../../app/store';
import { toaster } from '../../../ui/toaster';
import { jobsApi, type Job } from '../../mastering/jobsApi';
import { projectOpened, stemsLoaded } from '../../project/projectSlice';
import { normalizeStems } from '../../project/stems';
import { NOT_ANALYSED, VideoGenerationPanel } from './VideoGenerationPanel';

const PROJECT: Project = { id: 'p1', name: 'Night Drive', originalFile: 'song.wav', duration: 263, bpm: 124, key: 'A minor', source: 'audio', activeEngine: 'fast', createdAt: '2026-11-23T16:00:00.000Z' };
const STEMS = normalizeStems((['vocals', 'drums', 'bass', 'other'] as const).map((type) => ({ id: `p1-fast-${type}`, type, engine: 'fast' as const, url: `/api/stems/p1-fast-${type}/audio` })));
const FACTS = { resolution: '720p' as const, width: 1280, height: 720, fps: 30, startSeconds: 62, endSeconds: 92, look: { palette: 'ocean', mode: 'waves', motion: 'drift' } };
const videoJob = (job: Partial<Job>): Job => ({ id: 'v1', projectId: 'p1', type: 'video', provider: 'local', status: 'processing', progress: 0, createdAt: '2026-11-23T16:05:00.000Z', ...job });
const COMPLETED = videoJob({ status: 'completed', progress: 100, result: { outputs: [{ name: 'video.mp4', url: '/api/jobs/v1/outputs/video.mp4', video: FACTS }] } });

let server: ReturnType<typeof installFakeFetch>;
let toasts: Array<{ title?: unknown; description?: unknown; type?: unknown }>;
let clockMs: number;

beforeEach(() => {
  server = installFakeFetch();
  server.answer('GET', '/api/projects/p1/jobs', { status: 200, body: [] });
  toasts = [];
  jest.spyOn(toaster, 'create').mockImplementation((toast) => {
    toasts.push(toast);
    return 'toast';
  });
  clockMs = 1_000_000;
  jest.spyOn(Date, 'now').mockImplementation(() => clockMs);
});
afterEach(() => {
  server.restore();
  jest.restoreAllMocks();
});

async function renderPanel({ project = PROJECT as Project | null } = {}) {
  const store = createStore();
  if (project) {
    store.dispatch(projectOpened(project));
    store.dispatch(stemsLoaded({ stems: STEMS, partialSeconds: null }));
  }
  await act(async () =>
    void render(
      <Provider store={store}>
        <ChakraProvider value={defaultSystem}>
          <VideoGenerationPanel />
        </ChakraProvider>
      </Provider>,
    ),
  );
  return store;
}

const startButton = () => screen.getByTestId('start-video') as HTMLButtonElement;
const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
/**
 * A job's new state a second later: what the server answers from now on, and at once in the cache as a live
 * event brings it (the cache keeps only answers newer than the one it holds).
 */
const arrive = (store: ReturnType<typeof createStore>, job: Job) => {
  clockMs += 1000;
  server.answer('GET', `/api/jobs/${job.id}`, { status: 200, body: job });
  return act(async () => void (await store.dispatch(jobsApi.util.upsertQueryData('getJob', job.id, job))));
};

describe('VideoGenerationPanel', () => {
  it('says "No project selected" and cannot start without an open project', async () => {
    await renderPanel({ project: null });
    expect(screen.getByTestId('video-panel')).toBeTruthy();
    expect(screen.getByTestId('video-no-project').textContent).toBe('No project selected');
    expect(startButton().textContent).toBe('Generate Video');
    expect(startButton().disabled).toBe(true);
    expect(server.sent).toEqual([]);
  });

  it('offers the sample prompt, the song\'s real length, the chorus loop and three resolutions', async () => {
    await renderPanel();
    expect((screen.getByLabelText('Style prompt') as HTMLTextAreaElement).value).toBe(VIDEO_DEFAULT_PROMPT);
    expect([...select('Duration').options].map((option) => option.text)).toEqual(['Full Track (4:23)', 'Chorus Loop (0:30)', 'Custom Range']);
    expect([...select('Resolution').options].map((option) => option.value)).toEqual(['720p', '1080p', '4k']);
    expect(startButton().disabled).toBe(false);
  });

  it("shows a job accepted behind the user's other jobs with its place in line instead of a progress, then its run", async () => {
    const waiting = videoJob({ queuePosition: 2 });
    server.answer('POST', '/api/jobs/runway-video', { status: 202, body: waiting });
    server.answer('GET', '/api/jobs/v1', { status: 200, body: waiting });
    const store = await renderPanel();
    fireEvent.click(startButton());
    await waitFor(() => expect(screen.getByTestId('video-waiting').textContent).toBe('Waiting for your other jobs to finish: 2nd in line'));
    expect(startButton().textContent).toBe('Waiting...');
    expect(screen.queryByTestId('video-progress')).toBeNull();
    expect(screen.getByTestId('cancel-video')).toBeTruthy();
    expect(toasts).toContainEqual(expect.objectContaining({ title: 'Video generation started', description: 'Waiting for your other jobs to finish: 2nd in line' }));
    // It moves up (a live job_progress), then it starts: the progress replaces the words, its pace measured from its own start.
    await arrive(store, videoJob({ queuePosition: 1 }));
    await waitFor(() => expect(screen.getByTestId('video-waiting').textContent).toBe('Waiting for your other jobs to finish: 1st in line'));
    await arrive(store, videoJob({}));
    await waitFor(() => expect(startButton().textContent).toBe('Generating...'));
    expect(screen.queryByTestId('video-waiting')).toBeNull();
    expect(screen.getByTestId('video-remaining').textContent).toBe('0% · measuring the time left');
    await arrive(store, videoJob({ progress: 10 }));
    await waitFor(() => expect(screen.getByTestId('video-remaining').textContent).toBe('10% · 9 seconds remaining'));
  });

  it('sends what is selected, says Starting... then Generating... with the time left at the measured rate, then shows the video', async () => {
    server.answer('POST', '/api/jobs/runway-video', { status: 202, body: videoJob({}) });
    server.answer('GET', '/api/jobs/v1', { status: 200, body: videoJob({}) });
    server.hold('POST', '/api/jobs/runway-video');
    const store = await renderPanel();
    fireEvent.change(screen.getByLabelText('Style prompt'), { target: { value: '  ocean waves drifting  ' } });
    fireEvent.change(select('Duration'), { target: { value: 'chorus' } });
    fireEvent.change(select('Resolution'), { target: { value: '720p' } });
    fireEvent.click(startButton());
    await waitFor(() => expect(startButton().textContent).toBe('Starting...'));
    expect(startButton().disabled).toBe(true);
    await act(async () => server.release('POST', '/api/jobs/runway-video'));
    expect(server.sent.find((request) => request.method === 'POST')?.body).toEqual({ projectId: 'p1', parameters: { prompt: 'ocean waves drifting', duration: 'chorus', resolution: '720p' } });
    await waitFor(() => expect(startButton().textContent).toBe('Generating...'));
    expect(toasts).toContainEqual(expect.objectContaining({ title: 'Video generation started', type: 'success' }));

    expect(screen.getByTestId('video-remaining').textContent).toBe('0% · measuring the time left');
    // 10 % a second after it started: 9 s for the other 90 %.
    await arrive(store, videoJob({ progress: 10 }));
    await waitFor(() => expect(screen.getByTestId('video-remaining').textContent).toBe('10% · 9 seconds remaining'));
    // Then 25 % four seconds after it started: 6.25 % a second, 12 s for the last 75 % (the seed's formula would say 60).
    clockMs += 2000;
    await arrive(store, videoJob({ progress: 25 }));
    await waitFor(() => expect(screen.getByTestId('video-remaining').textContent).toBe('25% · 12 seconds remaining'));
    expect(screen.getByTestId('video-progress').getAttribute('data-progress')).toBe('25');
    // A poll that answers late with an older reading does not move the bar back.
    await arrive(store, videoJob({ progress: 20 }));
    await waitFor(() => expect(store.getState().api.queries['getJob("v1")']?.data).toMatchObject({ progress: 20 }));
    expect(screen.getByTestId('video-progress').getAttribute('data-progress')).toBe('25');
    expect(screen.getByTestId('video-remaining').textContent).toMatch(/^25% · /);

    await arrive(store, COMPLETED);
    await waitFor(() => expect(toasts).toContainEqual(expect.objectContaining({ title: 'Video generation complete!', type: 'success' })));
    const player = screen.getByTestId('video-player') as HTMLVideoElement;
    expect(player.tagName).toBe('VIDEO');
    expect(player.controls).toBe(true);
    expect(player.getAttribute('src')).toBe('/api/jobs/v1/outputs/video.mp4');
    expect(screen.getByTestId('download-video').getAttribute('href')).toBe('/api/jobs/v1/outputs/video.mp4?download=1');
    expect(screen.getByTestId('video-provider').textContent).toBe('Rendered locally');
    expect(screen.getByTestId('video-look').textContent).toBe('Look: ocean colours, waves, drift motion');
    expect(screen.getByTestId('video-span').textContent).toBe('1:02–1:32 of the song · 720p (1280×720) · 30 fps');
    expect(startButton().textContent).toBe('Generate Video');
  });

  it('sends a custom range in seconds, and will not send one outside the song', async () => {
    server.answer('POST', '/api/jobs/runway-video', { status: 202, body: videoJob({}) });
    await renderPanel();
    fireEvent.change(select('Duration'), { target: { value: 'custom' } });
    fireEvent.change(screen.getByLabelText('To (m:ss)'), { target: { value: '4:30' } });
    expect(startButton().disabled).toBe(true);
    expect(screen.getByTestId('video-blocked').textContent).toBe('The end must be within the song (4:23).');
    fireEvent.change(screen.getByLabelText('From (m:ss)'), { target: { value: '1:00' } });
    fireEvent.change(screen.getByLabelText('To (m:ss)'), { target: { value: '1:45.5' } });
    fireEvent.change(select('Resolution'), { target: { value: '4k' } });
    await act(async () => fireEvent.click(startButton()));
    expect(server.sent.find((request) => request.method === 'POST')?.body).toEqual({
      projectId: 'p1',
      parameters: { prompt: VIDEO_DEFAULT_PROMPT, duration: 'custom', customStart: 60, customEnd: 105.5, resolution: '4k' },
    });
  });

  it('says which cloud rendered it', async () => {
    server.answer('GET', '/api/projects/p1/jobs', { status: 200, body: [{ ...COMPLETED, provider: 'runway' }] });
    server.answer('GET', '/api/jobs/v1', { status: 200, body: { ...COMPLETED, provider: 'runway', result: { outputs: [{ ...COMPLETED.result!.outputs[0]!, video: { ...FACTS, look: undefined, clipSeconds: 10 } }] } } });
    await renderPanel();
    await waitFor(() => expect(screen.getByTestId('video-provider').textContent).toBe('Rendered by Runway'));
    expect(screen.getByTestId('video-look').textContent).toBe('A 10-second generated clip, looped to the music');
  });

  it('toasts the start failure and the job failure in the catalogue\'s words', async () => {
    server.answer('POST', '/api/jobs/runway-video', { status: 409, body: { message: 'Stems are not ready yet' } }, { status: 202, body: videoJob({}) });
    server.answer('GET', '/api/jobs/v1', { status: 200, body: videoJob({}) });
    const store = await renderPanel();
    await act(async () => fireEvent.click(startButton()));
    expect(toasts).toContainEqual(expect.objectContaining({ title: 'Generation failed', description: 'Failed to start video generation', type: 'error' }));
    expect(screen.getByTestId('video-start-error').textContent).toBe('Stems are not ready yet');

    await act(async () => fireEvent.click(startButton()));
    await waitFor(() => expect(startButton().textContent).toBe('Generating...'));
    await arrive(store, videoJob({ status: 'failed', progress: 40, error: 'Video generation failed: the audio could not be processed' }));
    await waitFor(() => expect(screen.queryByTestId('video-error')).not.toBeNull());
    expect(toasts).toContainEqual(expect.objectContaining({ title: 'Video generation failed', description: 'Please try again with different parameters.', type: 'error' }));
    expect(screen.getByTestId('video-error').textContent).toBe('Video generation failed: the audio could not be processed');
  });

  it('waits for the song\'s analysis and for a prompt', async () => {
    await renderPanel({ project: { ...PROJECT, bpm: null } });
    expect(startButton().disabled).toBe(true);
    expect(screen.getByTestId('video-blocked').textContent).toBe(NOT_ANALYSED);
  });

  it('will not send an empty prompt', async () => {
    await renderPanel();
    fireEvent.change(screen.getByLabelText('Style prompt'), { target: { value: '   ' } });
    expect(startButton().disabled).toBe(true);
    expect(screen.getByTestId('video-blocked').textContent).toBe('Describe a style for the video.');
  });
});
