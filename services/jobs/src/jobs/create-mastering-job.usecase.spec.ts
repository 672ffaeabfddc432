import { RpcFailure } from '@stemdeck/platform';
import { FakeClock, SequentialIds } from '../testing/fake-clock';
import { FakeMediaProjects, fourStems } from '../testing/fake-media-projects';
import { FakeMasteringProvider } from '../testing/fake-mastering-provider';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { RecordingJobQueue } from '../testing/recording-publishers';
import { CreateMasteringJobUseCase, PROJECT_NOT_FOUND, STEMS_NOT_READY } from './create-mastering-job.usecase';

describe('CreateMasteringJobUseCase', () => {
  const parameters = { masterType: 'full-mix', style: 'warm', intensity: 2 } as const;
  let media: FakeMediaProjects;
  let jobs: InMemoryJobs;
  let queue: RecordingJobQueue;
  let useCase: CreateMasteringJobUseCase;

  beforeEach(() => {
    media = new FakeMediaProjects();
    jobs = new InMemoryJobs();
    queue = new RecordingJobQueue();
    useCase = new CreateMasteringJobUseCase(media, jobs, queue, new FakeMasteringProvider(), new FakeClock(Date.UTC(2026, 0, 2)), new SequentialIds('job'));
  });

  it('stores a processing job for the owner\'s separated project and queues it by id', async () => {
    media.add('u1', 'p1', fourStems('p1'));
    const job = await useCase.execute('u1', { projectId: 'p1', parameters });
    expect(job).toEqual({ id: 'job-1', projectId: 'p1', type: 'mastering', provider: 'local', status: 'processing', progress: 0, createdAt: '2026-01-02T00:00:00.000Z' });
    expect(jobs.docs.get('job-1')).toMatchObject({ ownerId: 'u1', parameters });
    expect(queue.queued).toEqual([{ jobId: 'job-1', message: { jobId: 'job-1', ownerId: 'u1' } }]);
  });

  it('answers 404 for a project that is not the owner\'s, 409 before its stems exist, and stores nothing', async () => {
    media.add('u2', 'p1', fourStems('p1'));
    media.add('u1', 'fresh');
    await expect(useCase.execute('u1', { projectId: 'p1', parameters })).rejects.toEqual(new RpcFailure(404, PROJECT_NOT_FOUND));
    await expect(useCase.execute('u1', { projectId: 'fresh', parameters })).rejects.toEqual(new RpcFailure(409, STEMS_NOT_READY));
    await expect(useCase.execute('u1', { projectId: 'fresh', parameters: { ...parameters, masterType: 'per-stem' } })).rejects.toEqual(
      new RpcFailure(409, STEMS_NOT_READY),
    );
    expect(jobs.docs.size).toBe(0);
    expect(queue.queued).toEqual([]);
  });

  it('queues per-stem and stem-groups masters as it does full-mix ones', async () => {
    media.add('u1', 'p1', fourStems('p1'));
    for (const masterType of ['per-stem', 'stem-groups'] as const) {
      await expect(useCase.execute('u1', { projectId: 'p1', parameters: { ...parameters, masterType } })).resolves.toMatchObject({ status: 'processing' });
    }
    expect(jobs.docs.size).toBe(2);
    expect(queue.queued).toHaveLength(2);
  });

  it('marks the job failed when it cannot be queued, and says so', async () => {
    media.add('u1', 'p1', fourStems('p1'));
    queue.failure = new Error('no JetStream');
    await expect(useCase.execute('u1', { projectId: 'p1', parameters })).rejects.toThrow('no JetStream');
    expect(jobs.docs.get('job-1')).toMatchObject({ status: 'failed', error: 'The job could not be queued' });
  });
});
