import { tmpdir } from 'node:os';
import { JobScratch } from '../scratch/job-scratch';
import { FakeVideoRenderer } from '../testing/fake-video-provider';
import { VideoJobRunner } from './video-job.runner';
import type { WorkItem } from '@stemdeck/platform';
import { enhanceJobPrefix, type EnhanceParameters, type JobWorkMessage } from '@stemdeck/proto';
import { FakeClock } from '../testing/fake-clock';
import { FakeEnhanceProvider } from '../testing/fake-enhance-provider';
import { FakeMasteringProvider } from '../testing/fake-mastering-provider';
import { FakeMediaProjects, fourStems } from '../testing/fake-media-projects';
import { InMemoryJobStorage } from '../testing/in-memory-job-storage';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { RecordingLineAnnouncements } from '../testing/recording-slots';
import { RecordingJobEvents } from '../testing/recording-publishers';
import { CancelJobUseCase, FINISHING } from './cancel-job.usecase';
import { ENHANCEMENT_FAILED, EnhanceJobRunner, NOTHING_TO_ENHANCE, STEMS_CHANGED } from './enhance-job.runner';
import { MasteringJobRunner } from './mastering-job.runner';
import { gaveUpMessage, NOT_PROCESSED, RunJobUseCase } from './run-job.usecase';

const MAX_DELIVER = 3;
const prefix = enhanceJobPrefix('u1', 'p1', 'e1');
const original = (type: string) => `signed:users/o/projects/p1/stems/fast/${type}.flac`;
const parameters = (targets: Partial<EnhanceParameters['targetStems']>): EnhanceParameters => ({
  enhancements: { noiseReduction: true, loudnessNormalization: true, speechEnhancement: false },
  targetStems: { vocals: false, drums: false, bass: false, other: false, ...targets },
});

describe('RunJobUseCase: enhance jobs', () => {
  let media: FakeMediaProjects;
  let jobs: InMemoryJobs;
  let storage: InMemoryJobStorage;
  let provider: FakeEnhanceProvider;
  let events: RecordingJobEvents;
  let cancel: CancelJobUseCase;
  let useCase: RunJobUseCase;

  const item = (deliveryCount = 1): WorkItem<JobWorkMessage> => ({
    payload: { jobId: 'e1', ownerId: 'u1' },
    deliveryCount,
    isLastAttempt: deliveryCount >= MAX_DELIVER + 1,
    heartbeat: () => undefined,
  });
  const progressSeen = () => events.published.filter((e) => e.type === 'job_progress').map((e) => e.job.progress);

  beforeEach(async () => {
    media = new FakeMediaProjects();
    jobs = new InMemoryJobs();
    storage = new InMemoryJobStorage();
    provider = new FakeEnhanceProvider();
    events = new RecordingJobEvents();
    cancel = new CancelJobUseCase(jobs, storage, events, new RecordingLineAnnouncements());
    const runners = { mastering: new MasteringJobRunner(media, storage, new FakeMasteringProvider()), enhance: new EnhanceJobRunner(media, storage, provider), video: new VideoJobRunner(media, storage, new FakeVideoRenderer(), new JobScratch(tmpdir())) };
    // Every reading of the clock moves it 600 ms, so each progress report is past the store interval.
    useCase = new RunJobUseCase(jobs, storage, events, { JOBS_MAX_DELIVER: MAX_DELIVER }, new FakeClock(0, 600), runners);
    media.add('u1', 'p1', fourStems('p1'));
    await jobs.createRunning({ _id: 'e1', ownerId: 'u1', projectId: 'p1', type: 'enhance', provider: 'local', parameters: parameters({ vocals: true, bass: true }), createdAt: new Date(0) });
  });

  it('enhances each chosen stem from its original, stores it under the job\'s folder, hands the outputs to media, then completes', async () => {
    // An earlier enhance job's version is playing: this one still starts from the originals.
    await media.attachEnhancedStems('u1', 'p1', 'older', [{ stemId: 'p1-fast-vocals', objectKey: 'users/u1/projects/p1/enhanced/older/vocals.flac' }]);
    media.onAttach = (call) => {
      if (call.jobId !== 'e1') return;
      // Handed over only once every output is stored, while the job is still running.
      expect(storage.keys().sort()).toEqual([`${prefix}bass.flac`, `${prefix}vocals.flac`]);
      expect(jobs.docs.get('e1')).toMatchObject({ status: 'processing', finishing: true });
    };
    expect(await useCase.execute(item())).toBe('done');

    expect(media.versionsAsked).toEqual(['original']);
    expect(provider.requests.map((request) => [request.input, request.enhancements])).toEqual([
      [original('vocals'), { noiseReduction: true, loudnessNormalization: true, speechEnhancement: false }],
      [original('bass'), { noiseReduction: true, loudnessNormalization: true, speechEnhancement: false }],
    ]);
    expect(storage.objects.get(`${prefix}vocals.flac`)).toEqual({ path: '/work/enhanced-vocals.flac', contentType: 'audio/flac' });
    expect(media.attached.at(-1)).toEqual({
      ownerId: 'u1',
      projectId: 'p1',
      jobId: 'e1',
      stems: [
        { stemId: 'p1-fast-vocals', objectKey: `${prefix}vocals.flac` },
        { stemId: 'p1-fast-bass', objectKey: `${prefix}bass.flac` },
      ],
    });
    const figures = { before: { integratedLufs: -23.4, lra: 7.2, truePeakDbtp: -6.1 }, after: { integratedLufs: -16, lra: 6.8, truePeakDbtp: -1.2 } };
    expect(jobs.docs.get('e1')).toMatchObject({
      status: 'completed',
      progress: 100,
      finishing: false,
      before: null,
      after: null,
      outputs: [
        { name: 'vocals.flac', stemType: 'vocals', objectKey: `${prefix}vocals.flac`, contentType: 'audio/flac', ...figures },
        { name: 'bass.flac', stemType: 'bass', objectKey: `${prefix}bass.flac`, contentType: 'audio/flac', ...figures },
      ],
    });
    expect(provider.disposed).toBe(2);
    const completed = events.published.at(-1)!;
    expect(completed.type).toBe('job_completed');
    expect(completed.job.result).toEqual({
      outputs: [
        { name: 'vocals.flac', stemType: 'vocals', ...figures },
        { name: 'bass.flac', stemType: 'bass', ...figures },
      ],
    });
  });

  it('shares the progress bar between the stems: it rises through each in turn and never goes back', async () => {
    await useCase.execute(item());
    const progress = progressSeen();
    expect(progress).toEqual([0, 12, 25, 37, 50, 62, 75, 87, 99]);
  });

  it('enhances only the chosen stems the project has, and fails at once (no retry) when it has none of them', async () => {
    media.add('u1', 'p1', fourStems('p1').filter((stem) => stem.type !== 'bass'));
    expect(await useCase.execute(item())).toBe('done');
    expect(provider.requests.map((request) => request.input)).toEqual([original('vocals')]);
    expect(jobs.docs.get('e1')!.outputs.map((output) => output.name)).toEqual(['vocals.flac']);

    await jobs.createRunning({ _id: 'e2', ownerId: 'u1', projectId: 'p1', type: 'enhance', provider: 'local', parameters: parameters({ bass: true }), createdAt: new Date(1) });
    expect(await useCase.execute({ ...item(1), payload: { jobId: 'e2', ownerId: 'u1' } })).toBe('done');
    expect(jobs.docs.get('e2')).toMatchObject({ status: 'failed', error: NOTHING_TO_ENHANCE });
    expect(events.types().at(-1)).toBe('job_failed');
  });

  it('retries a failed attempt and fails the last one "Enhancement failed: …" in plain words (the cause is logged), leaving nothing under its folder and nothing handed to media', async () => {
    storage.onPut = (key) => {
      if (key.endsWith('bass.flac')) throw new Error('MinIO unavailable');
    };
    expect(await useCase.execute(item(1))).toBe('retry');
    expect(storage.keys()).toEqual([]);
    expect(jobs.docs.get('e1')!.status).toBe('processing');
    expect(await useCase.execute(item(MAX_DELIVER))).toBe('give-up');
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'failed', error: `${ENHANCEMENT_FAILED}: ${NOT_PROCESSED}` });
    expect(storage.keys()).toEqual([]);
    expect(media.attached).toEqual([]);
    expect(events.published.at(-1)!).toMatchObject({ type: 'job_failed', job: { error: 'Enhancement failed: the audio could not be processed' } });
  });

  it('fails, without running, the extra delivery JetStream makes when every attempt died', async () => {
    expect(await useCase.execute(item(MAX_DELIVER + 1))).toBe('give-up');
    expect(provider.requests).toEqual([]);
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'failed', error: gaveUpMessage(ENHANCEMENT_FAILED, MAX_DELIVER) });
  });

  it('stops when cancelled mid-run: the enhancer is aborted, nothing is stored or handed over', async () => {
    provider.onStep = async (input, fraction) => {
      if (input === original('bass') && fraction === 0.5) await cancel.execute('u1', 'e1');
    };
    expect(await useCase.execute(item())).toBe('done');
    expect(provider.requests[1]!.signal.aborted).toBe(true);
    expect(storage.keys()).toEqual([]);
    expect(media.attached).toEqual([]);
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'failed', error: 'Cancelled' });
    expect(events.types()).not.toContain('job_completed');
  });

  it('stops before the hand-over when cancelled during the last upload: nothing handed over, nothing left', async () => {
    storage.onPut = async (key) => {
      if (key.endsWith('bass.flac')) await cancel.execute('u1', 'e1');
    };
    expect(await useCase.execute(item())).toBe('done');
    expect(media.attached).toEqual([]);
    expect(storage.keys()).toEqual([]);
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'failed', error: 'Cancelled' });
  });

  it('refuses a cancel once the outputs are being handed over (409), and completes', async () => {
    let refused: unknown;
    media.onAttach = async () => {
      await cancel.execute('u1', 'e1').catch((error: unknown) => void (refused = error));
    };
    expect(await useCase.execute(item())).toBe('done');
    expect(refused).toMatchObject({ status: 409, message: FINISHING });
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'completed' });
    expect(storage.keys()).toHaveLength(2);
  });

  it('stops and removes what it stored when the project is deleted during the hand-over', async () => {
    media.onAttach = async () => {
      media.remove('u1', 'p1');
      await jobs.deleteForProject('u1', 'p1');
    };
    expect(await useCase.execute(item())).toBe('done');
    expect(storage.keys()).toEqual([]);
    expect(jobs.docs.size).toBe(0);
    expect(events.types()).not.toContain('job_completed');
  });

  it('fails at once, leaving nothing, when the stems were replaced meanwhile (media no longer has them)', async () => {
    media.onAttach = () => media.add('u1', 'p1', fourStems('p9'));
    expect(await useCase.execute(item(1))).toBe('done');
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'failed', error: STEMS_CHANGED });
    expect(storage.keys()).toEqual([]);
  });

  it('an attempt whose hand-over answer is lost keeps its objects (media may already play them) and is retried; a cancel stays refused; the retry completes', async () => {
    media.onAttach = () => {
      media.onAttach = undefined;
      throw new Error('stemdeck.media.stems.enhanced.attach timed out');
    };
    expect(await useCase.execute(item(1))).toBe('retry');
    expect(storage.keys()).toHaveLength(2);
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'processing', finishing: true });
    await expect(cancel.execute('u1', 'e1')).rejects.toMatchObject({ status: 409, message: FINISHING });
    expect(await useCase.execute(item(2))).toBe('done');
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'completed', attempts: 2 });
    expect(media.attached).toHaveLength(1);
    expect(storage.keys()).toHaveLength(2);
  });

  it('a job that fails for good after handing over keeps its objects (a stem may play them), and so does the extra delivery', async () => {
    media.onAttach = () => {
      throw new Error('stemdeck.media.stems.enhanced.attach timed out');
    };
    expect(await useCase.execute(item(MAX_DELIVER))).toBe('give-up');
    expect(jobs.docs.get('e1')).toMatchObject({ status: 'failed', error: `${ENHANCEMENT_FAILED}: ${NOT_PROCESSED}` });
    expect(storage.keys()).toHaveLength(2);
  });
});
