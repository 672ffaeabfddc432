import type { WorkItem } from '@stemdeck/platform';
import { VIDEO_DEFAULT_PROMPT, VideoParameters, videoJobPrefix, type JobWorkMessage } from '@stemdeck/proto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobScratch } from '../scratch/job-scratch';
import { FakeClock } from '../testing/fake-clock';
import { FakeMediaProjects, fourStems } from '../testing/fake-media-projects';
import { FakeVideoRenderer } from '../testing/fake-video-provider';
import { InMemoryJobStorage } from '../testing/in-memory-job-storage';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { RecordingLineAnnouncements } from '../testing/recording-slots';
import { RecordingJobEvents } from '../testing/recording-publishers';
import { CancelJobUseCase } from './cancel-job.usecase';
import { toJobRecord } from './job-record';
import type { JobRunners } from './job-runner';
import { gaveUpMessage, RunJobUseCase } from './run-job.usecase';
import { VIDEO_FAILED, VideoJobRunner, videoSpan } from './video-job.runner';

const MAX_DELIVER = 3;
const prefix = videoJobPrefix('u1', 'p1', 'v1');
const chorus720 = VideoParameters.parse({ duration: 'chorus', resolution: '720p' });

describe('RunJobUseCase: video jobs', () => {
  let workDir: string;
  let media: FakeMediaProjects;
  let jobs: InMemoryJobs;
  let storage: InMemoryJobStorage;
  let renderer: FakeVideoRenderer;
  let events: RecordingJobEvents;
  let useCase: RunJobUseCase;

  const item = (deliveryCount = 1): WorkItem<JobWorkMessage> => ({
    payload: { jobId: 'v1', ownerId: 'u1' },
    deliveryCount,
    isLastAttempt: deliveryCount >= MAX_DELIVER + 1,
    heartbeat: () => undefined,
  });
  const createJob = (parameters: unknown = chorus720) =>
    jobs.createRunning({ _id: 'v1', ownerId: 'u1', projectId: 'p1', type: 'video', provider: 'local', parameters: parameters as VideoParameters, createdAt: new Date(0) });
  const progressSeen = () => events.published.filter((e) => e.type === 'job_progress').map((e) => e.job.progress);

  beforeEach(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'video-runner-spec-'));
    media = new FakeMediaProjects();
    jobs = new InMemoryJobs();
    storage = new InMemoryJobStorage();
    renderer = new FakeVideoRenderer();
    events = new RecordingJobEvents();
    const video = new VideoJobRunner(media, storage, renderer, new JobScratch(workDir));
    // Only the video runner is reached by these jobs.
    useCase = new RunJobUseCase(jobs, storage, events, { JOBS_MAX_DELIVER: MAX_DELIVER }, new FakeClock(0, 600), { video } as unknown as JobRunners);
    media.add('u1', 'p1', fourStems('p1', { vocals: { volume: -3.5 }, other: { muted: true } }), { name: 'Night Drive', durationSeconds: 200, bpm: 124 });
  });
  afterEach(() => rm(workDir, { recursive: true, force: true }));

  it('renders the sounding stems at their saved mix with the song\'s tempo and length, stores video.mp4 with its facts, and leaves no scratch', async () => {
    await createJob({ ...chorus720, prompt: 'ocean drift' });
    expect(await useCase.execute(item())).toBe('done');

    const request = renderer.requests[0]!;
    expect(request.stems).toEqual([
      { input: 'signed:users/o/projects/p1/stems/fast/vocals.flac', gainDb: -3.5 },
      { input: 'signed:users/o/projects/p1/stems/fast/drums.flac', gainDb: 0 },
      { input: 'signed:users/o/projects/p1/stems/fast/bass.flac', gainDb: 0 },
    ]);
    expect(request).toMatchObject({ songSeconds: 200, bpm: 124, beatsPerBar: 4, span: { kind: 'chorus' }, resolution: '720p', prompt: 'ocean drift' });
    expect(request.scratchDir.startsWith(join(workDir, 'video-'))).toBe(true);
    expect(storage.objects.get(`${prefix}video.mp4`)).toEqual({ path: join(request.scratchDir, 'video.mp4'), contentType: 'video/mp4' });
    const done = jobs.docs.get('v1')!;
    expect(toJobRecord(done)).toMatchObject({
      status: 'completed',
      progress: 100,
      result: {
        outputs: [
          {
            name: 'video.mp4',
            video: { resolution: '720p', width: 1280, height: 720, fps: 30, startSeconds: 60, endSeconds: 90, look: { palette: 'neon', mode: 'bars', motion: 'pulse' } },
          },
        ],
      },
    });
    expect(progressSeen()).toEqual([0, 10, 40, 70, 90]);
    expect(events.published.at(-1)?.type).toBe('job_completed');
    // The scratch folder is the caller's to remove.
    expect(existsSync(request.scratchDir)).toBe(false);
    expect(await readdir(workDir)).toEqual([]);
  });

  it('renders the whole song for a chorus of a song no longer than the loop', async () => {
    media.add('u1', 'p1', fourStems('p1'), { durationSeconds: 24, bpm: 100 });
    await createJob();
    expect(await useCase.execute(item())).toBe('done');
    expect(renderer.requests[0]!.span).toEqual({ kind: 'full' });
    expect(jobs.docs.get('v1')!.outputs[0]!.video).toMatchObject({ startSeconds: 0, endSeconds: 24 });
  });

  it('passes a custom span and the default prompt', async () => {
    await createJob(VideoParameters.parse({ duration: 'custom', customStart: 12.5, customEnd: 40, resolution: '4k' }));
    expect(await useCase.execute(item())).toBe('done');
    expect(renderer.requests[0]).toMatchObject({ span: { kind: 'custom', startSeconds: 12.5, endSeconds: 40 }, resolution: '4k', prompt: VIDEO_DEFAULT_PROMPT });
  });

  it('a cancel mid-render stops the renderer and leaves no objects and no scratch', async () => {
    await createJob();
    const cancel = new CancelJobUseCase(jobs, storage, events, new RecordingLineAnnouncements());
    renderer.onStep = async (fraction) => {
      if (fraction === 0.4) await cancel.execute('u1', 'v1');
    };
    expect(await useCase.execute(item())).toBe('done');
    expect(jobs.docs.get('v1')).toMatchObject({ status: 'failed', error: 'Cancelled' });
    expect(storage.keys()).toEqual([]);
    expect(await readdir(workDir)).toEqual([]);
    expect(events.published.some((e) => e.type === 'job_completed')).toBe(false);
  });

  it('a render that died (the service restarted) is rendered again on the redelivery and completes once', async () => {
    await createJob();
    renderer.failures = 1;
    expect(await useCase.execute(item(1))).toBe('retry');
    expect(storage.keys()).toEqual([]);
    expect(await useCase.execute(item(2))).toBe('done');
    expect(renderer.requests).toHaveLength(2);
    expect(storage.keys()).toEqual([`${prefix}video.mp4`]);
    expect(jobs.docs.get('v1')).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('fails with the video words after the last attempt, and says the song is not analysed or has nothing sounding', async () => {
    await createJob();
    renderer.failures = 3;
    expect(await useCase.execute(item(3))).toBe('give-up');
    expect(jobs.docs.get('v1')!.error).toBe(`${VIDEO_FAILED}: the audio could not be processed`);
    expect(gaveUpMessage(VIDEO_FAILED, 3)).toBe('Video generation failed: the jobs service stopped during each of 3 attempts');

    jobs.docs.delete('v1');
    media.add('u1', 'p1', fourStems('p1'), { bpm: null });
    await createJob();
    expect(await useCase.execute(item())).toBe('done');
    expect(jobs.docs.get('v1')).toMatchObject({ status: 'failed', error: 'The song has not been analysed yet' });

    jobs.docs.delete('v1');
    media.add('u1', 'p1', fourStems('p1', { vocals: { muted: true }, drums: { muted: true }, bass: { muted: true }, other: { muted: true } }));
    await createJob();
    expect(await useCase.execute(item())).toBe('done');
    expect(jobs.docs.get('v1')!.error).toMatch(/^Nothing to render/);
  });

  it('stops and leaves nothing when the project was deleted before the render', async () => {
    await createJob();
    media.remove('u1', 'p1');
    expect(await useCase.execute(item())).toBe('done');
    expect(renderer.requests).toEqual([]);
    expect(storage.keys()).toEqual([]);
  });
});

describe('videoSpan', () => {
  const parameters = (value: object) => VideoParameters.parse({ resolution: '1080p', ...value });

  it('takes a chorus as such on a song longer than 30 s and the whole song otherwise', () => {
    expect(videoSpan(parameters({ duration: 'chorus' }), 30.5)).toEqual({ kind: 'chorus' });
    expect(videoSpan(parameters({ duration: 'chorus' }), 30)).toEqual({ kind: 'full' });
    expect(videoSpan(parameters({ duration: 'full' }), 10)).toEqual({ kind: 'full' });
  });

  it('clamps a custom span to a song that is now shorter, and refuses an empty one', () => {
    expect(videoSpan(parameters({ duration: 'custom', customStart: 5, customEnd: 50 }), 40)).toEqual({ kind: 'custom', startSeconds: 5, endSeconds: 40 });
    expect(() => videoSpan(parameters({ duration: 'custom', customStart: 45, customEnd: 50 }), 40)).toThrow('The chosen part of the song is empty');
  });
});
