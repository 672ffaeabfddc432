import { tmpdir } from 'node:os';
import { JobScratch } from '../scratch/job-scratch';
import { FakeVideoRenderer } from '../testing/fake-video-provider';
import { VideoJobRunner } from './video-job.runner';
import type { WorkItem } from '@stemdeck/platform';
import { masterKey, type JobWorkMessage } from '@stemdeck/proto';
import { FakeClock } from '../testing/fake-clock';
import { FakeEnhanceProvider } from '../testing/fake-enhance-provider';
import { FakeMediaProjects, fourStems } from '../testing/fake-media-projects';
import { FakeMasteringProvider } from '../testing/fake-mastering-provider';
import { InMemoryJobStorage } from '../testing/in-memory-job-storage';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { RecordingLineAnnouncements } from '../testing/recording-slots';
import { RecordingJobEvents } from '../testing/recording-publishers';
import { CancelJobUseCase } from './cancel-job.usecase';
import { ProviderFailure } from './job-runner';
import { EnhanceJobRunner } from './enhance-job.runner';
import { MASTERING_FAILED, MasteringJobRunner, soundingStems } from './mastering-job.runner';
import { gaveUpMessage, RunJobUseCase } from './run-job.usecase';

const MAX_DELIVER = 3;

describe('RunJobUseCase: mastering jobs', () => {
  let media: FakeMediaProjects;
  let jobs: InMemoryJobs;
  let storage: InMemoryJobStorage;
  let provider: FakeMasteringProvider;
  let events: RecordingJobEvents;
  let useCase: RunJobUseCase;
  let heartbeats: number;
  const key = masterKey('u1', 'p1', 'j1');

  const item = (deliveryCount = 1): WorkItem<JobWorkMessage> => ({
    payload: { jobId: 'j1', ownerId: 'u1' },
    deliveryCount,
    isLastAttempt: deliveryCount >= MAX_DELIVER + 1,
    heartbeat: () => void heartbeats++,
  });

  beforeEach(async () => {
    heartbeats = 0;
    media = new FakeMediaProjects();
    jobs = new InMemoryJobs();
    storage = new InMemoryJobStorage();
    provider = new FakeMasteringProvider();
    events = new RecordingJobEvents();
    // Every reading of the clock moves it 600 ms, so each progress report is past the store interval.
    const runners = { mastering: new MasteringJobRunner(media, storage, provider), enhance: new EnhanceJobRunner(media, storage, new FakeEnhanceProvider()), video: new VideoJobRunner(media, storage, new FakeVideoRenderer(), new JobScratch(tmpdir())) };
    useCase = new RunJobUseCase(jobs, storage, events, { JOBS_MAX_DELIVER: MAX_DELIVER }, new FakeClock(0, 600), runners);
    media.add('u1', 'p1', fourStems('p1', { vocals: { volume: -3.5 }, other: { muted: true } }));
    await jobs.createRunning({
      _id: 'j1',
      ownerId: 'u1',
      projectId: 'p1',
      type: 'mastering',
      provider: 'local',
      parameters: { masterType: 'full-mix', style: 'punchy', intensity: 3 },
      createdAt: new Date(0),
    });
  });

  it('masters the saved mix (mutes left out, volumes as gains), stores the master and its figures, then acknowledges', async () => {
    expect(await useCase.execute(item())).toBe('done');
    const request = provider.requests[0]!;
    expect(request.stems).toEqual([
      { input: 'signed:users/o/projects/p1/stems/fast/vocals.flac', gainDb: -3.5 },
      { input: 'signed:users/o/projects/p1/stems/fast/drums.flac', gainDb: 0 },
      { input: 'signed:users/o/projects/p1/stems/fast/bass.flac', gainDb: 0 },
    ]);
    expect(request).toMatchObject({ style: 'punchy', intensity: 3 });
    expect(storage.objects.get(key)).toEqual({ path: '/work/master.flac', contentType: 'audio/flac' });
    expect(jobs.docs.get('j1')).toMatchObject({
      status: 'completed',
      progress: 100,
      attempts: 1,
      outputs: [{ name: 'master.flac', objectKey: key, contentType: 'audio/flac' }],
      after: { integratedLufs: -14.1, lra: 4.2, truePeakDbtp: -1.1 },
    });
    expect(provider.disposed).toBe(1);
    expect(heartbeats).toBeGreaterThan(0);
    // A master sounds like the mix: each stem as the mixer plays it (media picks the version).
    expect(media.versionsAsked).toEqual([undefined]);
  });

  it('per-stem: each sounding stem mastered on its own plus their sum, every output stored under the job\'s prefix', async () => {
    jobs.docs.get('j1')!.parameters = { masterType: 'per-stem', style: 'open', intensity: 2 };
    expect(await useCase.execute(item())).toBe('done');
    const request = provider.setRequests[0]!;
    expect(request.parts.map((part) => [part.name, part.stems])).toEqual([
      ['vocals.flac', [{ input: 'signed:users/o/projects/p1/stems/fast/vocals.flac', gainDb: -3.5 }]],
      ['drums.flac', [{ input: 'signed:users/o/projects/p1/stems/fast/drums.flac', gainDb: 0 }]],
      ['bass.flac', [{ input: 'signed:users/o/projects/p1/stems/fast/bass.flac', gainDb: 0 }]],
    ]);
    expect(request).toMatchObject({ sum: 'mix.flac', style: 'open', intensity: 2 });
    const prefix = key.replace(/master\.flac$/, '');
    expect(jobs.docs.get('j1')!.outputs!.map((output) => output.objectKey)).toEqual(['vocals.flac', 'drums.flac', 'bass.flac', 'mix.flac'].map((name) => prefix + name));
    expect(storage.keys().sort()).toEqual(['bass.flac', 'drums.flac', 'mix.flac', 'vocals.flac'].map((name) => prefix + name));
    const progress = events.published.filter((e) => e.type === 'job_progress').map((e) => e.job.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('stem-groups: a failure while storing the outputs removes the ones already stored', async () => {
    jobs.docs.get('j1')!.parameters = { masterType: 'stem-groups', style: 'warm', intensity: 1 };
    const prefix = key.replace(/master\.flac$/, '');
    storage.onPut = (stored) => {
      if (stored.endsWith('melodic.flac')) throw new Error('MinIO unavailable');
    };
    expect(await useCase.execute(item(MAX_DELIVER))).toBe('give-up');
    expect(provider.setRequests[0]!.parts.map((part) => part.name)).toEqual(['rhythm.flac', 'melodic.flac']);
    expect(storage.keys().filter((stored) => stored.startsWith(prefix))).toEqual([]);
    expect(jobs.docs.get('j1')).toMatchObject({ status: 'failed' });
  });

  it('stores and announces real progress, rising, then job_completed with the result', async () => {
    await useCase.execute(item());
    const types = events.types();
    expect(types[0]).toBe('job_progress');
    expect(types.at(-1)).toBe('job_completed');
    const progress = events.published.filter((e) => e.type === 'job_progress').map((e) => e.job.progress);
    expect(progress).toEqual([0, 10, 40, 70, 90]);
    expect(events.published.at(-1)!.job).toMatchObject({
      status: 'completed',
      progress: 100,
      result: { outputs: [{ name: 'master.flac' }], before: { integratedLufs: -20.3 }, after: { truePeakDbtp: -1.1 } },
    });
    expect(events.published.every((e) => e.ownerId === 'u1')).toBe(true);
  });

  it('waits for a slow progress write before completing: no job_progress after job_completed', async () => {
    const setProgress = jobs.setProgress.bind(jobs);
    // The last write (at 90 %) is still on its way when the provider finishes.
    jobs.setProgress = async (ownerId, jobId, progress) => {
      const stored = await setProgress(ownerId, jobId, progress);
      if (progress === 90) await new Promise((resolve) => setTimeout(resolve, 50));
      return stored;
    };
    expect(await useCase.execute(item())).toBe('done');
    const types = events.types();
    expect(types.at(-1)).toBe('job_completed');
    expect(types.filter((type) => type === 'job_progress')).toHaveLength(5);
  });

  it('retries a failed attempt (nothing stored, no event) and fails the last one for good, leaving no objects', async () => {
    provider.failures = MAX_DELIVER;
    storage.objects.set(key, { path: 'earlier', contentType: 'audio/flac' });
    expect(await useCase.execute(item(1))).toBe('retry');
    expect(storage.keys()).toEqual([]);
    expect(jobs.docs.get('j1')!.status).toBe('processing');
    expect(await useCase.execute(item(2))).toBe('retry');
    expect(await useCase.execute(item(MAX_DELIVER))).toBe('give-up');
    // ffmpeg's own words (its stderr, command lines, internal urls) are logged, not shown to the user.
    expect(jobs.docs.get('j1')).toMatchObject({ status: 'failed', error: 'Mastering failed: the audio could not be processed' });
    expect(events.types().at(-1)).toBe('job_failed');
    expect(events.published.at(-1)!.job.error).toBe('Mastering failed: the audio could not be processed');
  });

  it("shows a cloud provider's own reason, written for users", async () => {
    provider.failures = MAX_DELIVER;
    provider.failure = new ProviderFailure('Dolby could not process the audio: The input file has no audio stream');
    expect(await useCase.execute(item(MAX_DELIVER))).toBe('give-up');
    expect(jobs.docs.get('j1')).toMatchObject({ status: 'failed', error: 'Mastering failed: Dolby could not process the audio: The input file has no audio stream' });
  });

  it('a redelivery after a restart finishes the job; a finished job is acknowledged without work', async () => {
    await jobs.markProcessing('u1', 'j1'); // the attempt that died
    expect(await useCase.execute(item(2))).toBe('done');
    expect(jobs.docs.get('j1')).toMatchObject({ status: 'completed', attempts: 2 });
    expect(await useCase.execute(item(3))).toBe('done');
    expect(provider.requests).toHaveLength(1);
  });

  it('fails, without running, the extra delivery JetStream makes when every attempt died', async () => {
    expect(await useCase.execute(item(MAX_DELIVER + 1))).toBe('give-up');
    expect(provider.requests).toHaveLength(0);
    expect(jobs.docs.get('j1')).toMatchObject({ status: 'failed', error: gaveUpMessage(MASTERING_FAILED, MAX_DELIVER) });
    expect(events.types()).toEqual(['job_failed']);
  });

  it('stops when cancelled mid-run: the provider is aborted and nothing is left', async () => {
    const cancel = new CancelJobUseCase(jobs, storage, events, new RecordingLineAnnouncements());
    const reached: number[] = [];
    provider.onStep = async (fraction) => {
      reached.push(fraction);
      if (fraction === 0.4) await cancel.execute('u1', 'j1');
    };
    expect(await useCase.execute(item())).toBe('done');
    // The first progress write after the cancel (at 0.7) finds the job no longer running and stops the provider.
    expect(reached).toEqual([0.1, 0.4, 0.7]);
    expect(provider.requests[0]!.signal.aborted).toBe(true);
    expect(storage.keys()).toEqual([]);
    expect(jobs.docs.get('j1')).toMatchObject({ status: 'failed', error: 'Cancelled' });
    expect(events.types().filter((type) => type === 'job_failed')).toHaveLength(1);
    expect(events.types()).not.toContain('job_completed');
  });

  it('removes the master when the job is cancelled while it uploads', async () => {
    const cancel = new CancelJobUseCase(jobs, storage, events, new RecordingLineAnnouncements());
    storage.onPut = () => cancel.execute('u1', 'j1').then(() => undefined);
    expect(await useCase.execute(item())).toBe('done');
    expect(storage.keys()).toEqual([]);
    expect(jobs.docs.get('j1')!.status).toBe('failed');
  });

  it('stops and removes what it wrote when the project (and so the job) is deleted meanwhile', async () => {
    const reached: number[] = [];
    provider.onStep = (fraction) => {
      reached.push(fraction);
      if (fraction === 0.4) void jobs.deleteForProject('u1', 'p1');
    };
    expect(await useCase.execute(item())).toBe('done');
    expect(reached).toEqual([0.1, 0.4, 0.7]);
    expect(storage.keys()).toEqual([]);
    expect(jobs.docs.size).toBe(0);
  });

  it('fails at once (no retry) when every stem is muted', async () => {
    media.add('u1', 'p1', fourStems('p1', { vocals: { muted: true }, drums: { muted: true }, bass: { muted: true }, other: { muted: true } }));
    expect(await useCase.execute(item(1))).toBe('done');
    expect(jobs.docs.get('j1')).toMatchObject({ status: 'failed', error: expect.stringContaining('every stem is muted') });
    expect(provider.requests).toHaveLength(0);
  });
});

describe('soundingStems', () => {
  it('plays what the mixer plays: muted never, only soloed ones while any is soloed', () => {
    const stems = fourStems('p', { vocals: { soloed: true }, drums: { soloed: true, muted: true }, bass: { muted: true } });
    expect(soundingStems(stems).map((stem) => stem.type)).toEqual(['vocals']);
    expect(soundingStems(fourStems('p', { bass: { muted: true } })).map((stem) => stem.type)).toEqual(['vocals', 'drums', 'other']);
  });
});
