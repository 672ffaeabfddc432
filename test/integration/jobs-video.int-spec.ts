import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSRF } from '../support/env';
import { followJob } from '../support/jobs';
import { fixturePath, listen, makeClip, objectKeys, ownerIdOf, uploadSeparated } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };
const SONG = 'Déjà vu';

interface VideoFacts {
  resolution: string;
  width: number;
  height: number;
  fps: number;
  startSeconds: number;
  endSeconds: number;
  look?: { palette: string; mode: string; motion: string };
}
interface Job {
  id: string;
  projectId: string;
  type: string;
  provider: string;
  status: string;
  progress: number;
  error?: string;
  result?: { outputs: Array<{ name: string; url: string; video?: VideoFacts }> };
}
interface Project {
  id: string;
  duration: number;
  bpm: number | null;
}

const startVideo = (agent: SignedInAgent, body: unknown) => agent.fetch('/api/jobs/runway-video', { method: 'POST', headers: json, body: JSON.stringify(body) });
const waitForJob = async (agent: SignedInAgent, id: string, done: (job: Job) => boolean, timeoutMs = 120_000): Promise<Job> =>
  (await followJob<Job>(agent, id, done, timeoutMs)).job;

/** ffprobe's view of a downloaded video: its streams and length. */
function probe(bytes: Buffer, name: string) {
  const path = fixturePath(name);
  writeFileSync(path, bytes);
  const { streams, format } = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path]).toString()) as {
    streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; pix_fmt?: string }>;
    format: { duration: string };
  };
  return { streams, duration: Number(format.duration) };
}

/** A separated, analysed project of a `seconds`-long song. */
async function analysedSong(agent: SignedInAgent, fileName: string, seconds: number): Promise<Project> {
  const { projectId } = await uploadSeparated(agent, makeClip(fileName, seconds, { codecArgs: ['-c:a', 'libvorbis'] }));
  const until = Date.now() + 30_000;
  for (;;) {
    const project = (await (await agent.fetch(`/api/projects/${projectId}`)).json()) as Project;
    if (project.bpm !== null) return project;
    if (Date.now() > until) throw new Error(`project ${projectId} was not analysed`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('Music videos: the local renderer through the gateway', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  let owner: string;
  let song: Project;
  let completed: Job;

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    owner = await ownerIdOf(demo);
    song = await analysedSong(demo, 'video-fixture-40.ogg', 40);
    expect((await demo.fetch(`/api/projects/${song.id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: SONG }) })).status).toBe(200);
  }, 120_000);

  it('renders a 720p chorus loop: job events on /ws, the facts on the job, an H.264/AAC MP4 of 30 s served with Range and saved under the song\'s name', async () => {
    const live = await listen(demo);
    try {
      const created = await startVideo(demo, { projectId: song.id, parameters: { prompt: 'ocean waves drifting at night', duration: 'chorus', resolution: '720p' } });
      expect(created.status).toBe(202);
      const job = (await created.json()) as Job;
      expect(job).toMatchObject({ id: expect.any(String), projectId: song.id, type: 'video', provider: 'local', status: 'processing', progress: 0 });

      await live.waitFor((e) => e.type === 'job_completed' && (e.job as Job).id === job.id, 120_000);
      const types = live.seen.filter((e) => (e.job as Job | undefined)?.id === job.id).map((e) => e.type);
      expect(types[0]).toBe('job_progress');
      expect(types.filter((type) => type === 'job_progress').length).toBeGreaterThan(1);

      completed = (await (await demo.fetch(`/api/jobs/${job.id}`)).json()) as Job;
      expect(completed).toMatchObject({ status: 'completed', progress: 100 });
      const output = completed.result!.outputs[0]!;
      expect(completed.result!.outputs).toHaveLength(1);
      expect(output).toMatchObject({ name: 'video.mp4', url: `/api/jobs/${job.id}/outputs/video.mp4` });
      const facts = output.video!;
      console.log(`chorus facts: ${JSON.stringify(facts)}`);
      expect(facts).toMatchObject({ resolution: '720p', width: 1280, height: 720, fps: 30, look: { palette: expect.any(String), mode: expect.any(String), motion: expect.any(String) } });
      expect(facts.endSeconds - facts.startSeconds).toBeCloseTo(30, 1);
      expect(facts.startSeconds).toBeGreaterThanOrEqual(0);
      expect(facts.endSeconds).toBeLessThanOrEqual(song.duration + 0.05);

      const whole = await demo.fetch(output.url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('video/mp4');
      expect(whole.headers.get('content-disposition')).toMatch(/^inline;/);
      const bytes = Buffer.from(await whole.arrayBuffer());
      const probed = probe(bytes, `video-${job.id}.mp4`);
      expect(probed.streams.map((stream) => [stream.codec_type, stream.codec_name]).sort()).toEqual([['audio', 'aac'], ['video', 'h264']]);
      expect(probed.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ width: 1280, height: 720, pix_fmt: 'yuv420p' });
      expect(Math.abs(probed.duration - 30)).toBeLessThan(0.5);

      // Seeking in the player: byte ranges.
      const ranged = await demo.fetch(output.url, { headers: { range: 'bytes=1000-1999' } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));

      const download = await demo.fetch(`${output.url}?download=1`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Deja vu - video.mp4"; filename*=UTF-8''D%C3%A9j%C3%A0%20vu%20-%20video.mp4`);
      await download.arrayBuffer();
      expect(await objectKeys(`users/${owner}/projects/${song.id}/videos/${job.id}/`)).toEqual([`users/${owner}/projects/${song.id}/videos/${job.id}/video.mp4`]);
    } finally {
      live.close();
    }
  }, 150_000);

  it.each<[string, unknown, string]>([
    ['no parameters', { projectId: 'p' }, 'parameters: Required'],
    ['an unknown duration', { projectId: 'p', parameters: { duration: 'loop', resolution: '720p' } }, 'parameters.duration'],
    ['an unknown resolution', { projectId: 'p', parameters: { duration: 'full', resolution: '8k' } }, 'parameters.resolution'],
    ['a prompt of 501 characters', { projectId: 'p', parameters: { prompt: 'x'.repeat(501), duration: 'full', resolution: '720p' } }, 'parameters.prompt: At most 500 characters'],
    ['an empty prompt', { projectId: 'p', parameters: { prompt: '  ', duration: 'full', resolution: '720p' } }, 'parameters.prompt: Must not be empty'],
    ['a custom span without its end', { projectId: 'p', parameters: { duration: 'custom', customStart: 3, resolution: '720p' } }, 'parameters.customEnd: Required for a custom duration'],
    ['a custom span ending before it starts', { projectId: 'p', parameters: { duration: 'custom', customStart: 10, customEnd: 5, resolution: '720p' } }, 'parameters.customEnd: Must be after customStart'],
  ])('answers 400 naming the field for %s', async (_case, body, field) => {
    const response = await startVideo(demo, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(field);
  });

  it('answers 400 naming the field for a custom span past the song\'s end', async () => {
    const response = await startVideo(demo, { projectId: song.id, parameters: { duration: 'custom', customStart: 10, customEnd: 45, resolution: '720p' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe('parameters.customEnd: Must be within the song (0:40)');
  });

  it('answers 404 for a foreign or unknown project and for another user\'s video', async () => {
    const parameters = { duration: 'chorus', resolution: '720p' };
    expect((await startVideo(rival, { projectId: song.id, parameters })).status).toBe(404);
    expect((await startVideo(demo, { projectId: 'no-such-project', parameters })).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}`)).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}/outputs/video.mp4`)).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}/outputs/video.mp4?download=1`)).status).toBe(404);
    expect((await rival.fetch(`/api/jobs/${completed.id}`, { method: 'DELETE', headers: CSRF })).status).toBe(404);
    expect((await demo.fetch(`/api/jobs/${completed.id}`)).status).toBe(200);
  });

  it('renders the whole of a song shorter than the chorus loop, at the resolution asked', async () => {
    const short = await analysedSong(demo, 'video-fixture-12.ogg', 12);
    const job = (await (await startVideo(demo, { projectId: short.id, parameters: { duration: 'chorus', resolution: '720p' } })).json()) as Job;
    const done = await waitForJob(demo, job.id, (current) => current.status !== 'processing');
    expect(done.status).toBe('completed');
    const output = done.result!.outputs[0]!;
    expect(output.video).toMatchObject({ startSeconds: 0, width: 1280, height: 720 });
    expect(Math.abs(output.video!.endSeconds - short.duration)).toBeLessThan(0.1);
    const probed = probe(Buffer.from(await (await demo.fetch(output.url)).arrayBuffer()), `video-${job.id}.mp4`);
    expect(Math.abs(probed.duration - short.duration)).toBeLessThan(0.5);
  }, 150_000);

  it('cancels a running video: it stops, is failed "Cancelled", and leaves no objects', async () => {
    const live = await listen(demo);
    try {
      const job = (await (await startVideo(demo, { projectId: song.id, parameters: { duration: 'full', resolution: '1080p' } })).json()) as Job;
      await live.waitFor((e) => e.type === 'job_progress' && (e.job as Job).id === job.id && (e.job as Job).progress > 0, 60_000);
      const cancelled = await demo.fetch(`/api/jobs/${job.id}`, { method: 'DELETE', headers: CSRF });
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toMatchObject({ id: job.id, status: 'failed', error: 'Cancelled' });
      // Long enough for the worker to notice (its next progress report) and for anything it was storing to land.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await objectKeys(`users/${owner}/projects/${song.id}/videos/${job.id}/`)).toEqual([]);
      expect(live.seen.some((e) => e.type === 'job_completed' && (e.job as Job).id === job.id)).toBe(false);
      expect(await (await demo.fetch(`/api/jobs/${job.id}`)).json()).toMatchObject({ status: 'failed', error: 'Cancelled' });
    } finally {
      live.close();
    }
  }, 90_000);

  it('finishes a video when the jobs service is killed mid-render and comes back (one video, the crash\'s scratch folder swept)', async () => {
    const pidFile = join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'pids', 'jobs.pid');
    const workDir = process.env.JOBS_WORK_DIR ?? '/tmp/stemdeck-jobs';
    const scratchOf = (pid: number) => readdirSync(workDir).filter((name) => name.startsWith(`video-${pid}-`));
    const live = await listen(demo);
    try {
      const job = (await (await startVideo(demo, { projectId: song.id, parameters: { duration: 'full', resolution: '720p' } })).json()) as Job;
      await live.waitFor((e) => e.type === 'job_progress' && (e.job as Job).id === job.id && (e.job as Job).progress > 0, 60_000);
      const killedPid = Number(readFileSync(pidFile, 'utf8'));
      process.kill(-killedPid, 'SIGKILL');
      expect(scratchOf(killedPid)).toHaveLength(1);
      const done = await live.waitFor((e) => e.type === 'job_completed' && (e.job as Job).id === job.id, 240_000);
      expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(killedPid);
      expect(scratchOf(killedPid)).toEqual([]);
      const output = (done.job as Job).result!.outputs[0]!;
      expect(output.video).toMatchObject({ startSeconds: 0, width: 1280, height: 720 });
      const probed = probe(Buffer.from(await (await demo.fetch(output.url)).arrayBuffer()), `video-${job.id}.mp4`);
      expect(Math.abs(probed.duration - song.duration)).toBeLessThan(0.5);
      expect(await objectKeys(`users/${owner}/projects/${song.id}/videos/${job.id}/`)).toEqual([`users/${owner}/projects/${song.id}/videos/${job.id}/video.mp4`]);
    } finally {
      live.close();
    }
  }, 300_000);
});
