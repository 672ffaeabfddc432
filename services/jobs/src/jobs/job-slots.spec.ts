import { MemorySlotBoard } from '@stemdeck/platform';
import type { EnhanceParameters } from '@stemdeck/proto';
import { FakeClock, SequentialIds } from '../testing/fake-clock';
import { FakeEnhanceProvider } from '../testing/fake-enhance-provider';
import { FakeMasteringProvider } from '../testing/fake-mastering-provider';
import { FakeMediaProjects, fourStems } from '../testing/fake-media-projects';
import { FakeVideoRenderer } from '../testing/fake-video-provider';
import { InMemoryJobStorage } from '../testing/in-memory-job-storage';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { RecordingJobEvents, RecordingJobQueue } from '../testing/recording-publishers';
import { CancelJobUseCase } from './cancel-job.usecase';
import { CreateJobUseCase, type NewJobCommand } from './create-job.usecase';
import { DeleteProjectJobsUseCase } from './delete-project-jobs.usecase';
import { JobSlots } from './job-slots';
import { JobQueries } from './job.queries';

const mastering: NewJobCommand = { projectId: 'p1', type: 'mastering', parameters: { masterType: 'full-mix', style: 'warm', intensity: 2 } };
const enhance: NewJobCommand = {
  projectId: 'p1',
  type: 'enhance',
  parameters: { enhancements: { noiseReduction: true, loudnessNormalization: false, speechEnhancement: false }, targetStems: { vocals: true, drums: false, bass: false, other: false } } as EnhanceParameters,
};
const video: NewJobCommand = { projectId: 'p1', type: 'video', parameters: { prompt: 'neon rain', duration: 'chorus', resolution: '720p' } };

/** Lets the places announced without being awaited (positionsChanged) be published. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A user's mastering, enhance and video jobs share JOBS_PER_USER slots; the rest wait their turn, oldest first. */
describe('the line: each user runs JOBS_PER_USER jobs at once', () => {
  let jobs: InMemoryJobs;
  let queue: RecordingJobQueue;
  let events: RecordingJobEvents;
  let board: MemorySlotBoard;
  let slots: JobSlots;
  let create: CreateJobUseCase;
  let queries: JobQueries;
  let cancel: CancelJobUseCase;
  const queuedIds = () => queue.queued.map((entry) => entry.jobId);
  const placesTold = () => events.published.filter((event) => event.type === 'job_progress').map((event) => [event.job.id, event.job.queuePosition]);

  beforeEach(() => {
    const media = new FakeMediaProjects();
    media.add('u1', 'p1', fourStems('p1'));
    media.add('u2', 'p1', fourStems('p1'));
    jobs = new InMemoryJobs();
    queue = new RecordingJobQueue();
    events = new RecordingJobEvents();
    board = new MemorySlotBoard();
    slots = new JobSlots(board, jobs, queue, events, { JOBS_PER_USER: 2, JOBS_SLOT_SWEEP_MS: 60_000 });
    // Each job a millisecond after the one before: the line is by creation time.
    create = new CreateJobUseCase(media, jobs, slots, new FakeMasteringProvider(), new FakeEnhanceProvider(), new FakeVideoRenderer(), new FakeClock(0, 1), new SequentialIds('job'));
    queries = new JobQueries(jobs, media);
    cancel = new CancelJobUseCase(jobs, new InMemoryJobStorage(), events, slots);
  });

  it('starts the first two of any type at once; the rest are accepted, processing, with places 1..n, and nothing queued for them', async () => {
    const answers = [];
    for (const command of [mastering, video, enhance, mastering]) answers.push(await create.execute('u1', command));
    expect(answers.map((job) => [job.id, job.type, job.status, job.queuePosition])).toEqual([
      ['job-1', 'mastering', 'processing', undefined],
      ['job-2', 'video', 'processing', undefined],
      ['job-3', 'enhance', 'processing', 1],
      ['job-4', 'mastering', 'processing', 2],
    ]);
    expect(queuedIds()).toEqual(['job-1', 'job-2']);
    expect(board.slots.size).toBe(2);
    // Reads say the same places.
    await expect(queries.get('u1', 'job-4')).resolves.toMatchObject({ queuePosition: 2 });
    expect((await queries.listForProject('u1', 'p1')).map((job) => [job.id, job.queuePosition])).toEqual([
      ['job-4', 2],
      ['job-3', 1],
      ['job-2', undefined],
      ['job-1', undefined],
    ]);
  });

  it('hands a released slot to the oldest waiting job and tells the one behind it its new place', async () => {
    for (const command of [mastering, mastering, video, enhance]) await create.execute('u1', command);
    await jobs.complete('u1', 'job-1', { outputs: [] });
    await slots.release('u1', 'job-1');
    await settle();
    expect(queuedIds()).toEqual(['job-1', 'job-2', 'job-3']);
    expect(jobs.docs.get('job-3')).toMatchObject({ waiting: false, status: 'processing' });
    expect(placesTold()).toEqual([['job-4', 1]]);
    await expect(queries.get('u1', 'job-3')).resolves.not.toHaveProperty('queuePosition');

    // A slot released twice (the worker and the sweep) starts nothing more than the limit allows.
    await slots.release('u1', 'job-1');
    expect(queuedIds()).toEqual(['job-1', 'job-2', 'job-3']);
    await jobs.fail('u1', 'job-2', 'broken');
    await slots.release('u1', 'job-2');
    expect(queuedIds()).toEqual(['job-1', 'job-2', 'job-3', 'job-4']);
    expect(await jobs.waitingIds('u1')).toEqual([]);
  });

  it("does not hold another user back behind someone's line", async () => {
    for (let i = 0; i < 4; i++) await create.execute('u1', mastering);
    const theirs = await create.execute('u2', video);
    expect(theirs).toMatchObject({ id: 'job-5', status: 'processing' });
    expect(theirs).not.toHaveProperty('queuePosition');
    expect(queuedIds()).toEqual(['job-1', 'job-2', 'job-5']);
  });

  it('cancels a waiting job: it leaves the line, is never queued, and the jobs behind it move up', async () => {
    for (let i = 0; i < 5; i++) await create.execute('u1', mastering);
    expect(await cancel.execute('u1', 'job-3')).toMatchObject({ id: 'job-3', status: 'failed', error: 'Cancelled' });
    await settle();
    expect(jobs.docs.get('job-3')).toMatchObject({ waiting: false });
    expect(placesTold()).toEqual([
      ['job-4', 1],
      ['job-5', 2],
    ]);
    await expect(queries.get('u1', 'job-5')).resolves.toMatchObject({ queuePosition: 2 });
    await jobs.complete('u1', 'job-1', { outputs: [] });
    await slots.release('u1', 'job-1');
    expect(queuedIds()).toEqual(['job-1', 'job-2', 'job-4']);
  });

  it("a deleted project's waiting jobs leave the line; the owner's others are told their places", async () => {
    const media = new FakeMediaProjects();
    media.add('u1', 'p1', fourStems('p1'));
    media.add('u1', 'p2', fourStems('p2'));
    create = new CreateJobUseCase(media, jobs, slots, new FakeMasteringProvider(), new FakeEnhanceProvider(), new FakeVideoRenderer(), new FakeClock(0, 1), new SequentialIds('job'));
    for (const projectId of ['p1', 'p1', 'p1', 'p2', 'p1']) await create.execute('u1', { ...mastering, projectId });
    await new DeleteProjectJobsUseCase(jobs, new InMemoryJobStorage(), slots).execute('u1', 'p1');
    await settle();
    expect(placesTold()).toEqual([['job-4', 1]]);
    // The deleted running jobs' worker gives their slots back (or the sweep does): the waiting one starts.
    const { freed } = await slots.sweep();
    expect(freed).toBe(2);
    expect(queuedIds()).toEqual(['job-1', 'job-2', 'job-4']);
  });

  it('the sweep frees the slot of a job that ended without giving it back, and starts the next', async () => {
    for (let i = 0; i < 3; i++) await create.execute('u1', mastering);
    await jobs.complete('u1', 'job-2', { outputs: [] });
    // The worker died before releasing: nothing moves until the sweep.
    expect(queuedIds()).toEqual(['job-1', 'job-2']);
    await slots.sweep();
    expect(queuedIds()).toEqual(['job-1', 'job-2', 'job-3']);
  });

  it('sweeps on its own timer once the service is up, and stops with it', async () => {
    const timed = new JobSlots(board, jobs, queue, events, { JOBS_PER_USER: 1, JOBS_SLOT_SWEEP_MS: 20 });
    const media = new FakeMediaProjects();
    media.add('u3', 'p1', fourStems('p1'));
    const timedCreate = new CreateJobUseCase(media, jobs, timed, new FakeMasteringProvider(), new FakeEnhanceProvider(), new FakeVideoRenderer(), new FakeClock(0, 1), new SequentialIds('t'));
    await timedCreate.execute('u3', mastering);
    await expect(timedCreate.execute('u3', mastering)).resolves.toMatchObject({ queuePosition: 1 });
    // t-1 ends without giving its slot back (its worker died): the timer's sweep starts t-2.
    await jobs.complete('u3', 't-1', { outputs: [] });
    timed.onApplicationBootstrap();
    try {
      const until = Date.now() + 2000;
      while (!queuedIds().includes('t-2') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(queuedIds()).toEqual(['t-1', 't-2']);
    } finally {
      await timed.onApplicationShutdown();
    }
  });
});
