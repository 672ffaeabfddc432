import { CSRF } from '../support/env';
import { followJob } from '../support/jobs';
import { listen, makeClip, objectKeys, ownerIdOf, uploadSeparated } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };
const fixture = () => makeClip('enhance-fixture.ogg', 20, { codecArgs: ['-c:a', 'libvorbis'] });
const parameters = {
  enhancements: { noiseReduction: true, loudnessNormalization: true, speechEnhancement: false },
  targetStems: { vocals: true, drums: false, bass: false, other: false },
};

interface Figures {
  integratedLufs: number;
  lra: number;
  truePeakDbtp: number;
}
interface Output {
  name: string;
  url: string;
  stemType?: string;
  before?: Figures;
  after?: Figures;
}
interface Job {
  id: string;
  projectId: string;
  type: string;
  provider: string;
  status: string;
  progress: number;
  error?: string;
  result?: { outputs: Output[]; before?: Figures; after?: Figures };
}
interface Stem {
  id: string;
  type: string;
  url: string;
  version: string;
  enhanced: { jobId: string; createdAt: string } | null;
}

const startEnhance = (agent: SignedInAgent, body: unknown) => agent.fetch('/api/jobs/dolby-enhance', { method: 'POST', headers: json, body: JSON.stringify(body) });
const bytesOf = async (agent: SignedInAgent, url: string) => {
  const response = await agent.fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};

describe('Enhancement: local enhance jobs on a project\'s stems through the gateway', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  let owner: string;
  let projectId: string;
  let completed: Job;

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    owner = await ownerIdOf(demo);
    ({ projectId } = await uploadSeparated(demo, fixture()));
  }, 90_000);

  it('enhances the vocals (noise reduction + loudness): real progress, per-stem figures, the FLAC to download, and the mixer\'s vocals stem now plays it', async () => {
    const live = await listen(demo);
    try {
      const created = await startEnhance(demo, { projectId, parameters });
      expect(created.status).toBe(202);
      const job = (await created.json()) as Job;
      expect(job).toMatchObject({ id: expect.any(String), projectId, type: 'enhance', provider: 'local', status: 'processing', progress: 0 });

      const { job: done, progress } = await followJob<Job>(demo, job.id, (seen) => seen.status !== 'processing');
      completed = done;
      expect(done).toMatchObject({ status: 'completed', progress: 100 });
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      const announced = live.seen.filter((e) => e.type === 'job_progress' && (e.job as Job).id === job.id).map((e) => (e.job as Job).progress);
      console.log(`enhance progress polled ${JSON.stringify(progress)}, announced ${JSON.stringify(announced)}`);
      // Seen between start and end, on the job and on /ws.
      expect([...progress, ...announced].some((value) => value > 0 && value < 100)).toBe(true);
      await live.waitFor((e) => e.type === 'job_completed' && (e.job as Job).id === job.id);

      const outputs = done.result!.outputs;
      expect(outputs).toEqual([
        { name: 'vocals.flac', stemType: 'vocals', url: `/api/jobs/${job.id}/outputs/vocals.flac`, before: expect.any(Object), after: expect.any(Object) },
      ]);
      const { before, after } = outputs[0]!;
      console.log(`enhanced vocals before ${JSON.stringify(before)} after ${JSON.stringify(after)}`);
      expect(Math.abs(after!.integratedLufs - -16)).toBeLessThanOrEqual(1);
      expect(after!.truePeakDbtp).toBeLessThanOrEqual(-1);
      expect(before!.integratedLufs).not.toBeCloseTo(after!.integratedLufs, 0);
      // A master's figures describe one file; an enhance job's are per output.
      expect(done.result!.before).toBeUndefined();

      const download = await demo.fetch(outputs[0]!.url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('audio/flac');
      const enhancedBytes = Buffer.from(await download.arrayBuffer());
      expect(enhancedBytes.subarray(0, 4).toString('latin1')).toBe('fLaC');

      const stems = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as Stem[];
      const vocals = stems.find((stem) => stem.type === 'vocals')!;
      expect(vocals).toMatchObject({ version: 'enhanced', enhanced: { jobId: job.id } });
      for (const stem of stems.filter((candidate) => candidate.type !== 'vocals')) expect(stem).toMatchObject({ version: 'original', enhanced: null });
      const playing = await bytesOf(demo, vocals.url);
      const originalBytes = await bytesOf(demo, `/api/stems/${encodeURIComponent(vocals.id)}/audio?version=original`);
      expect(playing.equals(originalBytes)).toBe(false);
      expect(playing.equals(enhancedBytes)).toBe(true);

      const prefix = `users/${owner}/projects/${projectId}/enhanced/${job.id}/`;
      expect(await objectKeys(prefix)).toEqual([`${prefix}vocals.flac`]);
    } finally {
      live.close();
    }
  }, 120_000);

  it.each<[string, unknown, string]>([
    ['no enhancement chosen', { projectId: 'p', parameters: { ...parameters, enhancements: { noiseReduction: false } } }, 'parameters.enhancements: Choose at least one enhancement'],
    ['no target stem', { projectId: 'p', parameters: { ...parameters, targetStems: {} } }, 'parameters.targetStems: Choose at least one stem'],
    ['a toggle that is not a boolean', { projectId: 'p', parameters: { ...parameters, enhancements: { noiseReduction: 'yes' } } }, 'parameters.enhancements.noiseReduction: Must be true or false'],
    ['an unknown enhancement', { projectId: 'p', parameters: { ...parameters, enhancements: { noiseReduction: true, reverb: true } } }, 'parameters.enhancements: Unrecognized key'],
    ['an unknown stem', { projectId: 'p', parameters: { ...parameters, targetStems: { vocals: true, piano: true } } }, 'parameters.targetStems: Unrecognized key'],
    ['an unknown parameter', { projectId: 'p', parameters: { ...parameters, style: 'warm' } }, 'parameters: Unrecognized key'],
    ['no projectId', { parameters }, 'projectId: Required'],
    ['no parameters', { projectId: 'p' }, 'parameters: Required'],
  ])('answers 400 naming the field for %s', async (_case, body, message) => {
    const response = await startEnhance(demo, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(message);
  });

  it('answers 404 for an unknown or foreign project and for another user\'s enhance job', async () => {
    expect((await startEnhance(demo, { projectId: 'no-such-project', parameters })).status).toBe(404);
    const foreign = await startEnhance(rival, { projectId, parameters });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { message: string }).message).toBe('Project not found');
    expect((await rival.fetch(`/api/jobs/${completed.id}`)).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}/outputs/vocals.flac`)).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}`, { method: 'DELETE', headers: CSRF })).status).toBe(404);
    expect((await demo.fetch(`/api/jobs/${completed.id}`)).status).toBe(200);
  });

  it('answers 409 "Stems are not ready yet" for a project without stems and stores no job', async () => {
    const project = (await (
      await demo.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Empty', originalFile: 'empty.wav', duration: 10 }) })
    ).json()) as { id: string };
    const response = await startEnhance(demo, { projectId: project.id, parameters });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toBe('Stems are not ready yet');
    expect((await (await demo.fetch(`/api/projects/${project.id}/jobs`)).json()) as Job[]).toEqual([]);
  });

  it('cancels a running enhance job: it stops, is failed "Cancelled", leaves nothing under its folder and switches no stem', async () => {
    const live = await listen(demo);
    try {
      const every = { vocals: true, drums: true, bass: true, other: true };
      const job = (await (await startEnhance(demo, { projectId, parameters: { ...parameters, targetStems: every } })).json()) as Job;
      await live.waitFor((e) => e.type === 'job_progress' && (e.job as Job).id === job.id, 20_000);
      const cancelled = await demo.fetch(`/api/jobs/${job.id}`, { method: 'DELETE', headers: CSRF });
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toMatchObject({ id: job.id, status: 'failed', error: 'Cancelled' });
      // Long enough for the worker to notice (each progress report) and for a stem it was uploading to land.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await objectKeys(`users/${owner}/projects/${projectId}/enhanced/${job.id}/`)).toEqual([]);
      expect(await (await demo.fetch(`/api/jobs/${job.id}`)).json()).toMatchObject({ status: 'failed', error: 'Cancelled' });
      expect(live.seen.some((e) => e.type === 'job_completed' && (e.job as Job).id === job.id)).toBe(false);
      const stems = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as Stem[];
      for (const stem of stems) expect(stem.enhanced?.jobId).not.toBe(job.id);
    } finally {
      live.close();
    }
  }, 60_000);

  it('lists enhance jobs with the project\'s jobs, and a deleted project takes its enhanced stems with it', async () => {
    const list = (await (await demo.fetch(`/api/projects/${projectId}/jobs`)).json()) as Job[];
    expect(list.map((job) => job.id)).toContain(completed.id);
    expect(list.every((job) => job.type === 'enhance')).toBe(true);
    const prefix = `users/${owner}/projects/${projectId}/enhanced/`;
    expect(await objectKeys(prefix)).not.toEqual([]);
    expect((await demo.fetch(`/api/projects/${projectId}`, { method: 'DELETE', headers: CSRF })).status).toBe(204);
    const until = Date.now() + 10_000;
    while ((await demo.fetch(`/api/jobs/${completed.id}`)).status !== 404 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await demo.fetch(`/api/jobs/${completed.id}`)).status).toBe(404);
    expect(await objectKeys(prefix)).toEqual([]);
  }, 30_000);
});
