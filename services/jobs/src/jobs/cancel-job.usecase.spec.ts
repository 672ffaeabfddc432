import { MemorySlotBoard, RpcFailure } from '@stemdeck/platform';
import { enhanceJobPrefix, masterKey, mastersPrefix, videoJobPrefix } from '@stemdeck/proto';
import { FakeMediaProjects } from '../testing/fake-media-projects';
import { InMemoryJobStorage } from '../testing/in-memory-job-storage';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { RecordingJobEvents, RecordingJobQueue } from '../testing/recording-publishers';
import { CancelJobUseCase, FINISHING, JOB_NOT_FOUND } from './cancel-job.usecase';
import { DeleteProjectJobsUseCase } from './delete-project-jobs.usecase';
import { JobSlots } from './job-slots';
import { JobQueries } from './job.queries';

const parameters = { masterType: 'full-mix', style: 'balanced', intensity: 2 } as const;

describe('cancelling, deleting and reading jobs', () => {
  let jobs: InMemoryJobs;
  let storage: InMemoryJobStorage;
  let events: RecordingJobEvents;
  let media: FakeMediaProjects;
  let slots: JobSlots;

  const create = (id: string, ownerId: string, projectId: string, at: number) =>
    jobs.createRunning({ _id: id, ownerId, projectId, type: 'mastering', provider: 'local', parameters, createdAt: new Date(at) });

  beforeEach(async () => {
    jobs = new InMemoryJobs();
    storage = new InMemoryJobStorage();
    events = new RecordingJobEvents();
    media = new FakeMediaProjects();
    slots = new JobSlots(new MemorySlotBoard(), jobs, new RecordingJobQueue(), events, { JOBS_PER_USER: 10, JOBS_SLOT_SWEEP_MS: 60_000 });
    media.add('u1', 'p1');
    await create('j1', 'u1', 'p1', 1000);
    await create('j2', 'u1', 'p1', 2000);
    await create('j3', 'u2', 'p9', 3000);
  });

  it('cancels a running job: failed "Cancelled", its objects gone, job_failed to the owner; a finished one is 409', async () => {
    storage.objects.set(masterKey('u1', 'p1', 'j1'), { path: 'x', contentType: 'audio/flac' });
    storage.objects.set(masterKey('u1', 'p1', 'j2'), { path: 'y', contentType: 'audio/flac' });
    const cancel = new CancelJobUseCase(jobs, storage, events, slots);
    expect(await cancel.execute('u1', 'j1')).toMatchObject({ id: 'j1', status: 'failed', error: 'Cancelled' });
    expect(storage.keys()).toEqual([masterKey('u1', 'p1', 'j2')]);
    expect(events.published).toEqual([{ type: 'job_failed', ownerId: 'u1', job: expect.objectContaining({ id: 'j1', status: 'failed' }) }]);
    await expect(cancel.execute('u1', 'j1')).rejects.toEqual(new RpcFailure(409, 'Only a running job can be cancelled'));
  });

  it('treats another user\'s job as absent (404) for cancel and reads', async () => {
    const cancel = new CancelJobUseCase(jobs, storage, events, slots);
    const queries = new JobQueries(jobs, media);
    await expect(cancel.execute('u1', 'j3')).rejects.toEqual(new RpcFailure(404, JOB_NOT_FOUND));
    await expect(queries.get('u1', 'j3')).rejects.toEqual(new RpcFailure(404, JOB_NOT_FOUND));
    await expect(queries.listForProject('u1', 'p9')).rejects.toMatchObject({ status: 404 });
    await expect(queries.output('u2', 'j1', 'master.flac')).rejects.toMatchObject({ status: 404 });
    expect(jobs.docs.get('j3')!.status).toBe('processing');
  });

  it('lists a project\'s jobs newest first; serves only a completed job\'s outputs', async () => {
    const queries = new JobQueries(jobs, media);
    expect((await queries.listForProject('u1', 'p1')).map((job) => job.id)).toEqual(['j2', 'j1']);
    await expect(queries.output('u1', 'j1', 'master.flac')).rejects.toMatchObject({ status: 404 });
    const key = masterKey('u1', 'p1', 'j1');
    await jobs.complete('u1', 'j1', {
      outputs: [{ name: 'master.flac', objectKey: key, contentType: 'audio/flac' }],
      before: { integratedLufs: -20, lra: 5, truePeakDbtp: -2 },
      after: { integratedLufs: -14, lra: 4, truePeakDbtp: -1 },
    });
    expect(await queries.output('u1', 'j1', 'master.flac')).toEqual({ objectKey: key, contentType: 'audio/flac', fileName: 'master.flac' });
    await expect(queries.output('u1', 'j1', 'other.flac')).rejects.toMatchObject({ status: 404 });
  });

  it('cancels a running enhance job, removing its enhanced stems; one handing its outputs over is 409', async () => {
    await jobs.createRunning({ _id: 'e1', ownerId: 'u1', projectId: 'p1', type: 'enhance', provider: 'local', parameters, createdAt: new Date(4000) });
    await jobs.createRunning({ _id: 'e2', ownerId: 'u1', projectId: 'p1', type: 'enhance', provider: 'local', parameters, createdAt: new Date(5000) });
    storage.objects.set(`${enhanceJobPrefix('u1', 'p1', 'e1')}vocals.flac`, { path: 'v', contentType: 'audio/flac' });
    storage.objects.set(`${enhanceJobPrefix('u1', 'p1', 'e2')}vocals.flac`, { path: 'w', contentType: 'audio/flac' });
    await jobs.beginFinishing('u1', 'e2');
    const cancel = new CancelJobUseCase(jobs, storage, events, slots);
    expect(await cancel.execute('u1', 'e1')).toMatchObject({ status: 'failed', error: 'Cancelled' });
    await expect(cancel.execute('u1', 'e2')).rejects.toEqual(new RpcFailure(409, FINISHING));
    expect(storage.keys()).toEqual([`${enhanceJobPrefix('u1', 'p1', 'e2')}vocals.flac`]);
    expect(jobs.docs.get('e2')!.status).toBe('processing');
  });

  it('removes a deleted project\'s jobs, masters, enhanced stems and videos, and only that project\'s', async () => {
    storage.objects.set(masterKey('u1', 'p1', 'j1'), { path: 'x', contentType: 'audio/flac' });
    storage.objects.set(`${videoJobPrefix('u1', 'p1', 'v1')}video.mp4`, { path: 'v', contentType: 'video/mp4' });
    storage.objects.set(`${enhanceJobPrefix('u1', 'p1', 'j2')}drums.flac`, { path: 'y', contentType: 'audio/flac' });
    storage.objects.set(masterKey('u2', 'p9', 'j3'), { path: 'z', contentType: 'audio/flac' });
    await new DeleteProjectJobsUseCase(jobs, storage, slots).execute('u1', 'p1');
    expect([...jobs.docs.keys()]).toEqual(['j3']);
    expect(storage.keys()).toEqual([masterKey('u2', 'p9', 'j3')]);
    expect(mastersPrefix('u1', 'p1')).toBe('users/u1/projects/p1/masters/');
  });
});
