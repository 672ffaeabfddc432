import { MemorySlotBoard, RpcFailure } from '@stemdeck/platform';
import type { EnhanceParameters } from '@stemdeck/proto';
import { FakeClock, SequentialIds } from '../testing/fake-clock';
import { FakeEnhanceProvider } from '../testing/fake-enhance-provider';
import { FakeMediaProjects, fourStems } from '../testing/fake-media-projects';
import { FakeMasteringProvider } from '../testing/fake-mastering-provider';
import { FakeVideoRenderer } from '../testing/fake-video-provider';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { RecordingJobEvents, RecordingJobQueue } from '../testing/recording-publishers';
import { CreateJobUseCase, NOT_ANALYSED, PROJECT_NOT_FOUND, STEMS_NOT_READY, type NewJobCommand } from './create-job.usecase';
import { JobSlots } from './job-slots';

describe('CreateJobUseCase', () => {
  const parameters = { masterType: 'full-mix', style: 'warm', intensity: 2 } as const;
  const enhance: EnhanceParameters = {
    enhancements: { noiseReduction: true, loudnessNormalization: false, speechEnhancement: true },
    targetStems: { vocals: true, drums: false, bass: false, other: false },
  };
  let media: FakeMediaProjects;
  let jobs: InMemoryJobs;
  let queue: RecordingJobQueue;
  let events: RecordingJobEvents;
  let slots: JobSlots;
  let useCase: CreateJobUseCase;

  beforeEach(() => {
    media = new FakeMediaProjects();
    jobs = new InMemoryJobs();
    queue = new RecordingJobQueue();
    events = new RecordingJobEvents();
    // A user's limit above what these specs start, so each job is handed to the queue at once ('the line' below sets 2).
    slots = new JobSlots(new MemorySlotBoard(), jobs, queue, events, { JOBS_PER_USER: 10, JOBS_SLOT_SWEEP_MS: 60_000 });
    useCase = new CreateJobUseCase(media, jobs, slots, new FakeMasteringProvider(), new FakeEnhanceProvider(), new FakeVideoRenderer(), new FakeClock(Date.UTC(2026, 0, 2)), new SequentialIds('job'));
  });

  it('stores a processing job for the owner\'s separated project and queues it by id', async () => {
    media.add('u1', 'p1', fourStems('p1'));
    const job = await useCase.execute('u1', { projectId: 'p1', type: 'mastering', parameters });
    expect(job).toEqual({ id: 'job-1', projectId: 'p1', type: 'mastering', provider: 'local', status: 'processing', progress: 0, createdAt: '2026-01-02T00:00:00.000Z' });
    expect(jobs.docs.get('job-1')).toMatchObject({ ownerId: 'u1', parameters });
    expect(queue.queued).toEqual([{ jobId: 'job-1', message: { jobId: 'job-1', ownerId: 'u1' } }]);
  });

  it('stores an enhance job with its parameters, named after the enhance provider, and queues it', async () => {
    media.add('u1', 'p1', fourStems('p1'));
    const job = await useCase.execute('u1', { projectId: 'p1', type: 'enhance', parameters: enhance });
    expect(job).toMatchObject({ id: 'job-1', type: 'enhance', provider: 'local', status: 'processing', progress: 0 });
    expect(jobs.docs.get('job-1')).toMatchObject({ type: 'enhance', parameters: enhance });
    expect(queue.queued.map((queued) => queued.jobId)).toEqual(['job-1']);
  });

  it.each<NewJobCommand['type']>(['mastering', 'enhance'])(
    '%s: answers 404 for a project that is not the owner\'s, 409 before its stems exist, and stores nothing',
    async (type) => {
      const command = (projectId: string) => ({ projectId, ...(type === 'enhance' ? { type, parameters: enhance } : { type, parameters }) }) as NewJobCommand;
      media.add('u2', 'p1', fourStems('p1'));
      media.add('u1', 'fresh');
      await expect(useCase.execute('u1', command('p1'))).rejects.toEqual(new RpcFailure(404, PROJECT_NOT_FOUND));
      await expect(useCase.execute('u1', command('nowhere'))).rejects.toEqual(new RpcFailure(404, PROJECT_NOT_FOUND));
      await expect(useCase.execute('u1', command('fresh'))).rejects.toEqual(new RpcFailure(409, STEMS_NOT_READY));
      expect(jobs.docs.size).toBe(0);
      expect(queue.queued).toEqual([]);
    },
  );

  it('queues per-stem and stem-groups masters as it does full-mix ones', async () => {
    media.add('u1', 'p1', fourStems('p1'));
    for (const masterType of ['per-stem', 'stem-groups'] as const) {
      await expect(useCase.execute('u1', { projectId: 'p1', type: 'mastering', parameters: { ...parameters, masterType } })).resolves.toMatchObject({ status: 'processing' });
    }
    expect(jobs.docs.size).toBe(2);
    expect(queue.queued).toHaveLength(2);
  });

  it('marks the job failed when it cannot be queued, tells the owner, and answers 503 in plain words', async () => {
    media.add('u1', 'p1', fourStems('p1'));
    queue.failure = new Error('no JetStream');
    await expect(useCase.execute('u1', { projectId: 'p1', type: 'enhance', parameters: enhance })).rejects.toMatchObject({ status: 503, message: expect.stringContaining('please try again') });
    expect(jobs.docs.get('job-1')).toMatchObject({ status: 'failed', error: 'The job could not be queued', waiting: false });
    expect(events.published).toEqual([{ type: 'job_failed', ownerId: 'u1', job: expect.objectContaining({ id: 'job-1', status: 'failed' }) }]);
  });
  describe('video', () => {
    const video = (parameters: object, projectId = 'p1'): NewJobCommand => ({
      projectId,
      type: 'video',
      parameters: { prompt: 'neon rain', duration: 'chorus', resolution: '720p', ...parameters } as never,
    });

    it('stores a video job named after the video provider and queues it', async () => {
      media.add('u1', 'p1', fourStems('p1'));
      const job = await useCase.execute('u1', video({}));
      expect(job).toMatchObject({ id: 'job-1', type: 'video', provider: 'local', status: 'processing' });
      expect(jobs.docs.get('job-1')).toMatchObject({ parameters: { prompt: 'neon rain', duration: 'chorus', resolution: '720p' } });
      expect(queue.queued.map((queued) => queued.jobId)).toEqual(['job-1']);
    });

    it('answers 404 for a foreign project, 409 before the song is analysed or separated', async () => {
      media.add('u2', 'p1', fourStems('p1'));
      media.add('u1', 'raw', fourStems('raw'), { bpm: null });
      media.add('u1', 'fresh');
      await expect(useCase.execute('u1', video({}))).rejects.toEqual(new RpcFailure(404, PROJECT_NOT_FOUND));
      await expect(useCase.execute('u1', video({}, 'raw'))).rejects.toEqual(new RpcFailure(409, NOT_ANALYSED));
      await expect(useCase.execute('u1', video({}, 'fresh'))).rejects.toEqual(new RpcFailure(409, STEMS_NOT_READY));
      expect(jobs.docs.size).toBe(0);
    });

    it('answers 400 naming the field for a custom span outside the song (3:20)', async () => {
      media.add('u1', 'p1', fourStems('p1'), { durationSeconds: 200 });
      const refused = (start: number, end: number) => useCase.execute('u1', video({ duration: 'custom', customStart: start, customEnd: end }));
      await expect(refused(10, 201)).rejects.toEqual(new RpcFailure(400, 'parameters.customEnd: Must be within the song (3:20)'));
      await expect(refused(200, 210)).rejects.toEqual(new RpcFailure(400, "parameters.customStart: Must be before the song's end (3:20)"));
      expect(jobs.docs.size).toBe(0);
      await expect(refused(190, 200)).resolves.toMatchObject({ type: 'video' });
    });
  });
});
