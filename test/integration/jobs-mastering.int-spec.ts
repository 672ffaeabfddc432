import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSRF } from '../support/env';
import { followJob } from '../support/jobs';
import { fixturePath, listen, makeClip, objectKeys, ownerIdOf, uploadSeparated } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };
const fixture = () => makeClip('mastering-fixture.ogg', 6, { codecArgs: ['-c:a', 'libvorbis'] });
const parameters = { masterType: 'full-mix', style: 'punchy', intensity: 2 };

interface Figures {
  integratedLufs: number;
  lra: number;
  truePeakDbtp: number;
}
interface Job {
  id: string;
  projectId: string;
  type: string;
  provider: string;
  status: string;
  progress: number;
  error?: string;
  result?: { outputs: Array<{ name: string; url: string }>; before: Figures; after: Figures };
  createdAt: string;
}

const startMastering = (agent: SignedInAgent, body: unknown) => agent.fetch('/api/jobs/landr-master', { method: 'POST', headers: json, body: JSON.stringify(body) });

const waitForJob = async (agent: SignedInAgent, id: string, done: (job: Job) => boolean, timeoutMs = 60_000): Promise<Job> =>
  (await followJob<Job>(agent, id, done, timeoutMs)).job;

describe('AI Mastering: local full-mix masters through the gateway', () => {
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

  it('masters the project\'s mix (intensity 2 by default): job_progress then job_completed on /ws, the figures on the job, the master as 24-bit FLAC with Range', async () => {
    const live = await listen(demo);
    try {
      // No intensity: Medium (2), whose target is −14 LUFS.
      const created = await startMastering(demo, { projectId, parameters: { masterType: 'full-mix', style: 'punchy' } });
      expect(created.status).toBe(202);
      const job = (await created.json()) as Job;
      expect(job).toMatchObject({ id: expect.any(String), status: 'processing', progress: 0, projectId, type: 'mastering', provider: 'local' });

      const done = await live.waitFor((e) => e.type === 'job_completed' && (e.job as Job).id === job.id, 60_000);
      const types = live.seen.filter((e) => (e.job as Job | undefined)?.id === job.id).map((e) => e.type);
      expect(types[0]).toBe('job_progress');
      expect(types.indexOf('job_progress')).toBeLessThan(types.indexOf('job_completed'));
      expect((done.job as Job).result?.outputs[0]?.url).toBe(`/api/jobs/${job.id}/outputs/master.flac`);

      completed = (await (await demo.fetch(`/api/jobs/${job.id}`)).json()) as Job;
      expect(completed).toMatchObject({ id: job.id, status: 'completed', progress: 100 });
      const { before, after } = completed.result!;
      expect(Math.abs(after.integratedLufs - -14)).toBeLessThanOrEqual(0.5);
      expect(after.truePeakDbtp).toBeLessThanOrEqual(-1);
      expect(before.integratedLufs).not.toBeCloseTo(after.integratedLufs, 0);

      const url = completed.result!.outputs[0]!.url;
      const whole = await demo.fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/flac');
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('fLaC');
      const path = fixturePath(`master-${job.id}.flac`);
      writeFileSync(path, bytes);
      const stream = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path]).toString()).streams[0];
      expect(stream).toMatchObject({ codec_name: 'flac', bits_per_raw_sample: '24', channels: 2 });
      expect(Number(stream.duration ?? 6)).toBeGreaterThan(5.5);

      const ranged = await demo.fetch(url, { headers: { range: 'bytes=0-99' } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(0, 100));
      expect(await objectKeys(`users/${owner}/projects/${projectId}/masters/${job.id}/`)).toEqual([`users/${owner}/projects/${projectId}/masters/${job.id}/master.flac`]);
    } finally {
      live.close();
    }
  }, 90_000);

  it('lists the project\'s jobs newest first', async () => {
    const second = (await (await startMastering(demo, { projectId, parameters: { ...parameters, style: 'warm', intensity: 1 } })).json()) as Job;
    const list = (await (await demo.fetch(`/api/projects/${projectId}/jobs`)).json()) as Job[];
    expect(list[0]!.id).toBe(second.id);
    expect(list.map((job) => job.id)).toContain(completed.id);
    const done = await waitForJob(demo, second.id, (job) => job.status !== 'processing');
    expect(done.status).toBe('completed');
    expect(Math.abs(done.result!.after.integratedLufs - -16)).toBeLessThanOrEqual(0.5);
  }, 90_000);

  it.each<[string, unknown, string]>([
    ['no projectId', { parameters }, 'projectId: Required'],
    ['no parameters', { projectId: 'p' }, 'parameters: Required'],
    ['an unknown masterType', { projectId: 'p', parameters: { ...parameters, masterType: 'loud' } }, 'parameters.masterType'],
    ['an unknown style', { projectId: 'p', parameters: { ...parameters, style: 'harsh' } }, 'parameters.style'],
    ['intensity 4', { projectId: 'p', parameters: { ...parameters, intensity: 4 } }, 'parameters.intensity: Must be 1, 2 or 3'],
    ['intensity 1.5', { projectId: 'p', parameters: { ...parameters, intensity: 1.5 } }, 'parameters.intensity'],
    ['intensity "2"', { projectId: 'p', parameters: { ...parameters, intensity: '2' } }, 'parameters.intensity'],
  ])('answers 400 naming the field for %s', async (_case, body, field) => {
    const response = await startMastering(demo, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(field);
  });

  it('answers 404 for a foreign or unknown project and for another user\'s job', async () => {
    expect((await startMastering(rival, { projectId, parameters })).status).toBe(404);
    expect((await startMastering(demo, { projectId: 'no-such-project', parameters })).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}`)).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}/outputs/master.flac`)).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}`, { method: 'DELETE', headers: CSRF })).status).toBe(404);
    expect((await rival.fetch(`/api/projects/${projectId}/jobs`)).status).toBe(404);
    expect((await demo.fetch('/api/jobs/no-such-job')).status).toBe(404);
    expect((await demo.fetch(`/api/jobs/${completed.id}`)).status).toBe(200);
  });

  it('answers 409 "Stems are not ready yet" for a project without stems, for every master type', async () => {
    const project = (await (
      await demo.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Empty', originalFile: 'empty.wav', duration: 10 }) })
    ).json()) as { id: string };
    for (const masterType of ['full-mix', 'per-stem', 'stem-groups']) {
      const response = await startMastering(demo, { projectId: project.id, parameters: { ...parameters, masterType } });
      expect(response.status).toBe(409);
      expect(((await response.json()) as { message: string }).message).toBe('Stems are not ready yet');
    }
    expect(((await (await demo.fetch(`/api/projects/${project.id}/jobs`)).json()) as Job[])).toEqual([]);
  });

  it.each<[string, string[]]>([
    ['per-stem', ['vocals.flac', 'drums.flac', 'bass.flac', 'other.flac', 'mix.flac']],
    ['stem-groups', ['rhythm.flac', 'melodic.flac', 'mix.flac']],
  ])('masters %s: every part and their sum, each downloadable FLAC, the sum at the target', async (masterType, expected) => {
    const created = await startMastering(demo, { projectId, parameters: { masterType, style: 'balanced', intensity: 2 } });
    expect(created.status).toBe(202);
    const job = (await created.json()) as Job;
    const progress: number[] = [];
    const done = await waitForJob(
      demo,
      job.id,
      (seen) => {
        progress.push(seen.progress);
        return seen.status !== 'processing';
      },
      120_000,
    );
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(done.result!.outputs.map((output) => output.name).sort()).toEqual([...expected].sort());
    const { after } = done.result!;
    console.log(`${masterType} sum after: ${JSON.stringify(after)}`);
    expect(Math.abs(after.integratedLufs - -14)).toBeLessThanOrEqual(0.5);
    expect(after.truePeakDbtp).toBeLessThanOrEqual(-1);
    for (const output of done.result!.outputs) {
      expect(output.url).toBe(`/api/jobs/${job.id}/outputs/${output.name}`);
      const response = await demo.fetch(output.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/flac');
      expect(Buffer.from(await response.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('fLaC');
    }
    const prefix = `users/${owner}/projects/${projectId}/masters/${job.id}/`;
    expect((await objectKeys(prefix)).sort()).toEqual(expected.map((name) => `${prefix}${name}`).sort());
  }, 150_000);

  it('cancels a running job: it stops, is failed "Cancelled", and leaves no objects', async () => {
    const live = await listen(demo);
    try {
      const job = (await (await startMastering(demo, { projectId, parameters })).json()) as Job;
      const cancelled = await demo.fetch(`/api/jobs/${job.id}`, { method: 'DELETE', headers: CSRF });
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toMatchObject({ id: job.id, status: 'failed', error: 'Cancelled' });
      await live.waitFor((e) => e.type === 'job_failed' && (e.job as Job).id === job.id);
      // Long enough for the worker to notice (each progress report) and for a master it was uploading to land.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await objectKeys(`users/${owner}/projects/${projectId}/masters/${job.id}/`)).toEqual([]);
      expect(await (await demo.fetch(`/api/jobs/${job.id}`)).json()).toMatchObject({ status: 'failed', error: 'Cancelled' });
      expect(live.seen.some((e) => e.type === 'job_completed' && (e.job as Job).id === job.id)).toBe(false);
      expect((await demo.fetch(`/api/jobs/${job.id}`, { method: 'DELETE', headers: CSRF })).status).toBe(409);
    } finally {
      live.close();
    }
  }, 30_000);

  it('removes a deleted project\'s jobs and masters', async () => {
    const { projectId: doomed } = await uploadSeparated(demo, fixture());
    const job = (await (await startMastering(demo, { projectId: doomed, parameters })).json()) as Job;
    await waitForJob(demo, job.id, (current) => current.status === 'completed');
    expect(await objectKeys(`users/${owner}/projects/${doomed}/masters/`)).toHaveLength(1);
    expect((await demo.fetch(`/api/projects/${doomed}`, { method: 'DELETE', headers: CSRF })).status).toBe(204);
    const until = Date.now() + 10_000;
    while ((await demo.fetch(`/api/jobs/${job.id}`)).status !== 404 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await demo.fetch(`/api/jobs/${job.id}`)).status).toBe(404);
    expect(await objectKeys(`users/${owner}/projects/${doomed}/masters/`)).toEqual([]);
  }, 90_000);

  it('finishes a job when the jobs service is killed mid-job and comes back (one master, no leftovers, the crash\'s scratch folder swept)', async () => {
    const pidFile = join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'pids', 'jobs.pid');
    const workDir = process.env.JOBS_WORK_DIR ?? '/tmp/stemdeck-jobs';
    const scratchOf = (pid: number) => readdirSync(workDir).filter((name) => name.startsWith(`master-${pid}-`));
    const { projectId: long } = await uploadSeparated(demo, makeClip('mastering-long.ogg', 90, { codecArgs: ['-c:a', 'libvorbis'] }));
    const live = await listen(demo);
    try {
      const job = (await (await startMastering(demo, { projectId: long, parameters })).json()) as Job;
      await live.waitFor((e) => e.type === 'job_progress' && (e.job as Job).id === job.id && (e.job as Job).progress > 0, 30_000);
      const killedPid = Number(readFileSync(pidFile, 'utf8'));
      process.kill(-killedPid, 'SIGKILL');
      // The killed process's scratch stays behind it (nothing ran its cleanup)...
      expect(scratchOf(killedPid)).toHaveLength(1);
      const done = await live.waitFor((e) => e.type === 'job_completed' && (e.job as Job).id === job.id, 90_000);
      expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(killedPid);
      // ...until the restarted service sweeps it at boot.
      expect(scratchOf(killedPid)).toEqual([]);
      expect(Math.abs((done.job as Job).result!.after.integratedLufs - -14)).toBeLessThanOrEqual(0.5);
      expect(await objectKeys(`users/${owner}/projects/${long}/masters/`)).toEqual([`users/${owner}/projects/${long}/masters/${job.id}/master.flac`]);
    } finally {
      live.close();
    }
  }, 180_000);
});
