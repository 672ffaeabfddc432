import { STEM_TYPES, type StereoAudio } from '@stemdeck/audio';
import { extractedAudioKey, type EngineName, type MediaEvent, type SeparationJobMessage } from '@stemdeck/proto';
import { FakeClock } from '../testing/fake-clock';
import { FakeEngines } from '../testing/fake-engines';
import { FakeMediaTools } from '../testing/fake-media-tools';
import { InMemoryProjects } from '../testing/in-memory-projects';
import { InMemorySeparationJobs } from '../testing/in-memory-separation-jobs';
import { InMemoryStemStorage, memoryUrl } from '../testing/in-memory-stem-storage';
import { InMemoryStems } from '../testing/in-memory-stems';
import { RecordingEvents } from '../testing/recording-publishers';
import { IngestJobSteps } from '../uploads/ingest-steps';
import { gaveUpMessage, PROGRESSIVE_HEAD_SECONDS, PROGRESSIVE_MIN_SECONDS, RunSeparationUseCase } from './run-separation.usecase';
import type { SeparationWorkItem } from './separation-queue';

jest.setTimeout(30_000);

const RATE = 8000;
const ATTEMPTS = 3;
const OWNER = 'owner';
const tone = (seconds: number): StereoAudio => {
  const left = new Float32Array(seconds * RATE).map((_, i) => 0.2 * Math.sin(i / 5));
  return { sampleRate: RATE, left, right: left.slice() };
};

/**
 * The use case against small in-memory fakes of its repositories, storage, tools and engines (unit level;
 * the real NATS/FerretDB/MinIO/ffmpeg path is covered by test/integration/media-*.int-spec.ts).
 */
function setUp(seconds: number, options: { engine?: EngineName; failWhole?: boolean; deleteAfterHead?: boolean; uploaded?: 'audio' | 'video'; clockStepMs?: number } = {}) {
  const projects = new InMemoryProjects();
  projects.add({ _id: 'p1', ownerId: OWNER, audioKey: 'audio-key', duration: seconds });
  // A project just uploaded: not analysed yet (and a video's audio track not extracted yet).
  if (options.uploaded) {
    const video = options.uploaded === 'video';
    projects.add({ _id: 'p1', ownerId: OWNER, source: options.uploaded, originalKey: 'original-key', audioKey: video ? null : 'audio-key', duration: seconds, bpm: null, key: null, analysis: null });
  }
  const stems = new InMemoryStems();
  const jobs = new InMemorySeparationJobs();
  const job = jobs.add({ _id: 'job-1', ownerId: OWNER, projectId: 'p1', engine: options.engine ?? 'fast' });
  const engines = new FakeEngines({ failAfterFrames: options.failWhole ? seconds * RATE * 0.5 : undefined });
  const storage = new InMemoryStemStorage();
  const tools = new FakeMediaTools();
  tools.add(memoryUrl('audio-key'), tone(seconds));
  if (options.uploaded === 'video') {
    tools.add(memoryUrl('original-key'), tone(seconds), { video: true });
    tools.add(memoryUrl(extractedAudioKey(OWNER, 'p1')), tone(seconds));
  }
  const events = new RecordingEvents();
  /** What the job document said about its first seconds when `stems_partial` went out. */
  const atPartial: { partialSeconds?: number | null } = {};
  events.onPublish = (event) => {
    if (event.type !== 'stems_partial') return;
    atPartial.partialSeconds = jobs.stored.get('job-1')?.partialSeconds;
    if (options.deleteAfterHead) projects.delete('p1');
  };
  const useCase = new RunSeparationUseCase(
    projects,
    stems,
    jobs,
    engines,
    storage,
    tools,
    events,
    new IngestJobSteps(projects, storage, tools, events),
    { SEPARATION_MAX_DELIVER: ATTEMPTS },
    // Every reading of the clock moves it on, so the progress throttle and the project look-ups take turns.
    new FakeClock(0, options.clockStepMs ?? 10),
  );
  const payload: SeparationJobMessage = { jobId: 'job-1', ownerId: OWNER, projectId: 'p1', engine: options.engine ?? 'fast' };
  const item = (deliveryCount: number): SeparationWorkItem => ({ payload, deliveryCount, isLastAttempt: false, heartbeat: () => undefined });
  return { useCase, item, storage, stems, events: events.published, separated: engines.separated, job, jobs, projects, tools, atPartial };
}

describe('RunSeparationUseCase', () => {
  it('stores the first seconds of every stem, then streams the whole song over them (progressive stems)', async () => {
    const { useCase, item, storage, events, separated, jobs, projects } = setUp(30);
    expect(await useCase.execute(item(1))).toBe('done');
    // The fast engine ran in this thread on the head and streamed over the whole song: the registry's was not asked.
    expect(separated).toEqual([]);
    const types = events.map((e) => e.type).filter((t) => t !== 'stems_progress');
    expect(types).toEqual(['stems_partial', 'stems_ready']);
    const partial = events.find((e) => e.type === 'stems_partial') as Extract<MediaEvent, { type: 'stems_partial' }>;
    expect(partial.stems.map((s) => s.type)).toEqual([...STEM_TYPES]);
    expect(Object.keys(storage.sizes()).sort()).toEqual(STEM_TYPES.map((t) => `users/owner/projects/p1/stems/fast/${t}.flac`).sort());
    // The whole stems replaced the first seconds at the same keys: every frame of the 30 s written once.
    expect(Object.values(storage.sizes())).toEqual(Array(4).fill(30 * RATE * 8));
    expect(jobs.stored.get('job-1')).toMatchObject({ status: 'completed', progress: 1 });
    expect(projects.stored.get('p1')?.activeEngine).toBe('fast');
    // An analysed project is not analysed again.
    expect(events.some((e) => e.type === 'project_analysed')).toBe(false);
  });

  it('records that the first seconds are stored, so a client that missed the event can load them', async () => {
    const { useCase, item, atPartial } = setUp(30);
    await useCase.execute(item(1));
    expect(atPartial.partialSeconds).toBe(PROGRESSIVE_HEAD_SECONDS);
  });

  it("analyses an upload's recording on the decode it separates (one decode), stores it and announces it", async () => {
    const { useCase, item, events, projects, tools } = setUp(30, { uploaded: 'audio' });
    expect(await useCase.execute(item(1))).toBe('done');
    expect(tools.decodes).toBe(1);
    const stored = projects.stored.get('p1');
    expect(stored?.bpm).toEqual(expect.any(Number));
    expect(stored?.key).toMatch(/^[A-G]#? (major|minor)$/);
    expect(stored?.analysis?.loudnessLufs).toEqual(expect.any(Number));
    expect(stored?.duration).toBe(30);
    const analysed = events.find((e) => e.type === 'project_analysed');
    expect(analysed).toEqual({ type: 'project_analysed', ownerId: OWNER, projectId: 'p1', bpm: stored?.bpm, key: stored?.key, duration: 30 });
    // Announced when the decode ended, before the whole stems were.
    const types = events.map((e) => e.type);
    expect(types.indexOf('project_analysed')).toBeLessThan(types.indexOf('stems_ready'));
  });

  it('starts decoding without probing again when the upload stored what its probe found', async () => {
    const { useCase, item, tools, storage } = setUp(12);
    expect(await useCase.execute(item(1))).toBe('done');
    expect(tools.probes).toBe(1);
    const stored = setUp(12);
    stored.projects.stored.get('p1')!.audioProbe = await stored.tools.probe(memoryUrl('audio-key'));
    expect(await stored.useCase.execute(stored.item(1))).toBe('done');
    expect(stored.tools.probes).toBe(1);
    // Same stems either way.
    expect(stored.storage.sizes()).toEqual(storage.sizes());
  });

  it("extracts a video's audio track first, then separates and analyses that", async () => {
    const { useCase, item, events, projects, tools, storage } = setUp(12, { uploaded: 'video' });
    expect(await useCase.execute(item(1))).toBe('done');
    expect(tools.extractions).toBe(1);
    expect(projects.stored.get('p1')?.audioKey).toBe(extractedAudioKey(OWNER, 'p1'));
    expect(storage.objects.get(extractedAudioKey(OWNER, 'p1'))?.contentType).toBe('audio/flac');
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['project_analysed', 'stems_partial', 'stems_ready']));
  });

  it('does neither twice when the job is delivered again (the server stopped after they were done)', async () => {
    const { useCase, item, events, tools, jobs } = setUp(12, { uploaded: 'video' });
    await useCase.execute(item(1));
    jobs.stored.get('job-1')!.status = 'processing';
    await useCase.execute(item(2));
    expect(tools.extractions).toBe(1);
    expect(events.filter((e) => e.type === 'project_analysed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'stems_ready')).toHaveLength(2);
  });

  it('streams the whole song through a model engine too (its first seconds separated apart)', async () => {
    const { useCase, item, storage, events, separated } = setUp(30, { engine: 'hybrid' });
    expect(await useCase.execute(item(1))).toBe('done');
    expect(separated).toEqual([PROGRESSIVE_HEAD_SECONDS, 30]);
    expect(events.map((e) => e.type).filter((t) => t !== 'stems_progress')).toEqual(['stems_partial', 'stems_ready']);
    expect(Object.values(storage.sizes())).toEqual(Array(4).fill(30 * RATE * 8));
  });

  it('separates short songs in one pass', async () => {
    const { useCase, item, events, storage } = setUp(PROGRESSIVE_MIN_SECONDS - 1);
    await useCase.execute(item(1));
    expect(events.some((e) => e.type === 'stems_partial')).toBe(false);
    expect(Object.values(storage.sizes())).toEqual(Array(4).fill((PROGRESSIVE_MIN_SECONDS - 1) * RATE * 8));
  });

  it('retries before the last attempt, and on the last removes partial stems, objects and documents', async () => {
    const first = setUp(30, { engine: 'hybrid', failWhole: true });
    expect(await first.useCase.execute(first.item(ATTEMPTS - 1))).toBe('retry');
    const { useCase, item, storage, stems, events, job, jobs } = setUp(30, { engine: 'hybrid', failWhole: true });
    expect(await useCase.execute(item(ATTEMPTS))).toBe('give-up');
    expect(events.map((e) => e.type)).toContain('stems_partial');
    expect(events.at(-1)).toMatchObject({ type: 'stems_failed', message: 'Stem separation failed' });
    expect(jobs.stored.get(job._id)).toMatchObject({ status: 'failed', error: 'engine crashed' });
    expect(storage.objects.size).toBe(0);
    expect(stems.stored.size).toBe(0);
  });

  it('marks a job failed without running it on the delivery after the last attempt (every attempt died)', async () => {
    const { useCase, item, events, jobs, separated, tools } = setUp(30);
    expect(await useCase.execute(item(ATTEMPTS + 1))).toBe('give-up');
    expect(separated).toEqual([]);
    expect(tools.decodes).toBe(0);
    const job = jobs.stored.get('job-1');
    expect(job?.status).toBe('failed');
    expect(job?.error).toMatch(/stopped during each of 3 attempts/);
    expect(events).toEqual([{ type: 'stems_failed', ownerId: 'owner', projectId: 'p1', engine: 'fast', message: gaveUpMessage(ATTEMPTS) }]);
  });

  it("gives up on a message naming someone else's job, and writes nothing to it (the job is read as the owner's first)", async () => {
    const { useCase, item, jobs, events, separated } = setUp(30);
    jobs.add({ _id: 'job-of-ann', ownerId: 'ann', projectId: 'p-ann', engine: 'fast' });
    const forged: SeparationWorkItem = { ...item(1), payload: { ...item(1).payload, jobId: 'job-of-ann' } };
    expect(await useCase.execute(forged)).toBe('give-up');
    expect(jobs.stored.get('job-of-ann')).toMatchObject({ ownerId: 'ann', status: 'queued', progress: 0, attempts: 0 });
    expect(events).toEqual([]);
    expect(separated).toEqual([]);
  });

  it('never lets a slow progress write land after the job completed, nor two progress writes race', async () => {
    // A second passes on every reading of the clock: every progress report is due to be stored.
    const { useCase, item, jobs } = setUp(30, { clockStepMs: 1000 });
    const write = jobs.setProgress.bind(jobs);
    let inFlight = 0;
    let mostInFlight = 0;
    const written: number[] = [];
    // A busy database: each progress write takes 30 ms of real time to land.
    jobs.setProgress = async (ownerId, jobId, progress) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 30));
      await write(ownerId, jobId, progress);
      written.push(progress);
      inFlight--;
    };
    expect(await useCase.execute(item(1))).toBe('done');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written.length).toBeGreaterThan(0);
    expect(mostInFlight).toBe(1);
    expect(jobs.stored.get('job-1')).toMatchObject({ status: 'completed', progress: 1 });
  });

  it('leaves nothing behind when the project is deleted while its stems are made', async () => {
    const { useCase, item, storage, stems, events, jobs } = setUp(30, { deleteAfterHead: true });
    expect(await useCase.execute(item(1))).toBe('done');
    expect(events.some((e) => e.type === 'stems_ready')).toBe(false);
    expect(jobs.stored.get('job-1')?.status).toBe('failed');
    expect(storage.objects.size).toBe(0);
    expect(stems.stored.size).toBe(0);
  });
});
