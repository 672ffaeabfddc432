import { SequentialIds } from '../testing/fake-clock';
import { FakeEngines } from '../testing/fake-engines';
import { InMemoryProjects } from '../testing/in-memory-projects';
import { InMemorySeparationJobs } from '../testing/in-memory-separation-jobs';
import { InMemoryStems } from '../testing/in-memory-stems';
import { RecordingEvents, RecordingJobQueue } from '../testing/recording-publishers';
import { MemorySlotBoard } from '@stemdeck/platform';
import { RequestSeparationUseCase } from './request-separation.usecase';
import { SeparationSlots } from './separation-slots';

const OWNER = 'owner-1';
const PROJECT = 'project-1';

function setUp(options: { installed?: Array<'fast' | 'hybrid' | 'quality'>; perUser?: number } = {}) {
  const projects = new InMemoryProjects();
  projects.add({ _id: PROJECT, ownerId: OWNER, audioKey: 'users/owner-1/projects/project-1/original', duration: 30 });
  const stems = new InMemoryStems();
  const jobs = new InMemorySeparationJobs();
  const queue = new RecordingJobQueue();
  const events = new RecordingEvents();
  const config = { SEPARATION_JOBS_PER_USER: options.perUser ?? 2, SEPARATION_SLOT_SWEEP_MS: 60_000 };
  const slots = new SeparationSlots(new MemorySlotBoard(), jobs, queue, events, config);
  const useCase = new RequestSeparationUseCase(projects, stems, jobs, new FakeEngines(options), slots, events, new SequentialIds('job'));
  return { projects, stems, jobs, queue, events, slots, useCase };
}

describe('RequestSeparationUseCase', () => {
  it('stores a queued job with a new id and puts it on the queue', async () => {
    const { jobs, queue, events, useCase } = setUp();
    const job = await useCase.execute({ ownerId: OWNER, projectId: PROJECT, engine: 'hybrid' });
    expect(job).toEqual({ id: 'job-1', projectId: PROJECT, engine: 'hybrid', status: 'queued', progress: 0, error: null, partialSeconds: null });
    expect(jobs.stored.get('job-1')).toMatchObject({ ownerId: OWNER, projectId: PROJECT, engine: 'hybrid', status: 'queued' });
    expect(queue.queued).toEqual([{ jobId: 'job-1', message: { jobId: 'job-1', ownerId: OWNER, projectId: PROJECT, engine: 'hybrid' } }]);
    expect(events.published).toEqual([]);
  });

  it('joins a job already queued or running for that engine instead of queueing another', async () => {
    const { jobs, queue, useCase } = setUp();
    jobs.add({ _id: 'earlier', ownerId: OWNER, projectId: PROJECT, engine: 'fast', status: 'processing', progress: 0.4 });
    const job = await useCase.execute({ ownerId: OWNER, projectId: PROJECT, engine: 'fast' });
    expect(job).toEqual({ id: 'earlier', projectId: PROJECT, engine: 'fast', status: 'processing', progress: 0.4, error: null, partialSeconds: null });
    expect(queue.queued).toEqual([]);
    expect(jobs.stored.size).toBe(1);
  });

  it('answers finished stems at once: they become the active set and stems_ready carries them', async () => {
    const { projects, stems, jobs, queue, events, useCase } = setUp();
    jobs.add({ _id: 'done', ownerId: OWNER, projectId: PROJECT, engine: 'fast', status: 'completed', progress: 1 });
    for (const type of ['bass', 'vocals', 'other', 'drums'] as const) {
      await stems.upsert({ ownerId: OWNER, projectId: PROJECT, engine: 'fast', type, objectKey: `stems/fast/${type}.flac`, quality: 'good' });
    }
    const job = await useCase.execute({ ownerId: OWNER, projectId: PROJECT, engine: 'fast' });
    expect(job).toMatchObject({ id: 'done', status: 'completed', progress: 1 });
    expect(projects.stored.get(PROJECT)?.activeEngine).toBe('fast');
    expect(queue.queued).toEqual([]);
    expect(events.published).toHaveLength(1);
    const [ready] = events.published;
    expect(ready).toMatchObject({ type: 'stems_ready', ownerId: OWNER, projectId: PROJECT, engine: 'fast' });
    expect(ready.type === 'stems_ready' && ready.stems.map((stem) => [stem.id, stem.type])).toEqual([
      ['project-1-fast-vocals', 'vocals'],
      ['project-1-fast-drums', 'drums'],
      ['project-1-fast-bass', 'bass'],
      ['project-1-fast-other', 'other'],
    ]);
  });

  it('queues a new job when the earlier one for that engine failed', async () => {
    const { jobs, queue, useCase } = setUp();
    jobs.add({ _id: 'broken', ownerId: OWNER, projectId: PROJECT, engine: 'quality', status: 'failed', error: 'engine crashed' });
    const job = await useCase.execute({ ownerId: OWNER, projectId: PROJECT, engine: 'quality' });
    expect(job).toMatchObject({ id: 'job-1', status: 'queued' });
    expect(queue.queued.map((entry) => entry.jobId)).toEqual(['job-1']);
  });

  it("answers 404 for a project that is missing or someone else's, storing and queueing nothing", async () => {
    const { jobs, queue, useCase } = setUp();
    await expect(useCase.execute({ ownerId: 'rival', projectId: PROJECT, engine: 'fast' })).rejects.toMatchObject({ status: 404, message: 'Project not found' });
    await expect(useCase.execute({ ownerId: OWNER, projectId: 'missing', engine: 'fast' })).rejects.toMatchObject({ status: 404 });
    expect(jobs.stored.size).toBe(0);
    expect(queue.queued).toEqual([]);
  });

  it('answers 409 for a project without audio', async () => {
    const { projects, queue, useCase } = setUp();
    projects.add({ _id: 'silent', ownerId: OWNER, audioKey: null });
    await expect(useCase.execute({ ownerId: OWNER, projectId: 'silent', engine: 'fast' })).rejects.toMatchObject({
      status: 409,
      message: 'This project has no audio to separate',
    });
    expect(queue.queued).toEqual([]);
  });

  it('answers 409 for an engine that is not installed, storing and queueing nothing', async () => {
    const { jobs, queue, useCase } = setUp({ installed: ['fast'] });
    await expect(useCase.execute({ ownerId: OWNER, projectId: PROJECT, engine: 'hybrid' })).rejects.toMatchObject({ status: 409, message: 'hybrid engine not installed' });
    expect(jobs.stored.size).toBe(0);
    expect(queue.queued).toEqual([]);
  });

  it('marks the job failed when it cannot be queued and answers 503 in plain words', async () => {
    const { jobs, queue, useCase } = setUp();
    queue.failure = new Error('no JetStream');
    await expect(useCase.execute({ ownerId: OWNER, projectId: PROJECT, engine: 'fast' })).rejects.toMatchObject({ status: 503, message: expect.stringContaining('please try again') });
    expect(jobs.stored.get('job-1')).toMatchObject({ status: 'failed', error: 'could not be queued', waiting: false });
  });

  it("runs a user's first separations at once and makes the rest wait their turn, oldest first", async () => {
    const { projects, jobs, queue, events, slots, useCase } = setUp({ perUser: 2 });
    for (const id of ['p2', 'p3', 'p4']) projects.add({ _id: id, ownerId: OWNER, audioKey: `users/owner-1/projects/${id}/original`, duration: 30 });
    const answers = [];
    for (const projectId of [PROJECT, 'p2', 'p3', 'p4']) answers.push(await useCase.execute({ ownerId: OWNER, projectId, engine: 'fast' }));
    expect(answers.map((job) => [job.id, job.status, job.queuePosition])).toEqual([
      ['job-1', 'queued', undefined],
      ['job-2', 'queued', undefined],
      ['job-3', 'queued', 1],
      ['job-4', 'queued', 2],
    ]);
    expect(queue.queued.map((entry) => entry.jobId)).toEqual(['job-1', 'job-2']);
    // Asking again for a waiting one answers its place; another user starts at once.
    await expect(useCase.execute({ ownerId: OWNER, projectId: 'p4', engine: 'fast' })).resolves.toMatchObject({ id: 'job-4', queuePosition: 2 });
    projects.add({ _id: 'theirs', ownerId: 'owner-2', audioKey: 'users/owner-2/projects/theirs/original', duration: 30 });
    await expect(useCase.execute({ ownerId: 'owner-2', projectId: 'theirs', engine: 'fast' })).resolves.not.toHaveProperty('queuePosition');
    // job-1 finishes: job-3 is handed on, job-4 moves up and is told so.
    await jobs.finish(OWNER, 'job-1', 'completed');
    await slots.release(OWNER, 'job-1');
    expect(queue.queued.map((entry) => entry.jobId)).toEqual(['job-1', 'job-2', 'job-5', 'job-3']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.published).toContainEqual({ type: 'stems_queued', ownerId: OWNER, projectId: 'p4', engine: 'fast', position: 1 });
  });

  it("queues a video's first job before its audio track is extracted (the job extracts it), but not a project without audio", async () => {
    const { projects, queue, useCase } = setUp();
    projects.add({ _id: 'video', ownerId: OWNER, source: 'video', originalKey: 'original', audioKey: null, duration: 30 });
    await expect(useCase.execute({ ownerId: OWNER, projectId: 'video', engine: 'fast' })).resolves.toMatchObject({ status: 'queued' });
    expect(queue.queued.map((q) => q.message.projectId)).toEqual(['video']);
    projects.add({ _id: 'manual', ownerId: OWNER, source: 'manual', audioKey: null, duration: 30 });
    await expect(useCase.execute({ ownerId: OWNER, projectId: 'manual', engine: 'fast' })).rejects.toMatchObject({ status: 409 });
  });
});
