import mongoose from 'mongoose';
import { CSRF } from '../support/env';
import { listen, makeClip, ownerIdOf, uploadSeparated } from '../support/media';
import { signInExtraUser } from '../support/sessions';
import type { SignedInAgent } from '../support/sign-in';

/** The stack's jobs per user (JOBS_PER_USER, default 2): mastering, enhance and video together. */
const PER_USER = 2;

const json = { ...CSRF, 'content-type': 'application/json' };
const mastering = { masterType: 'full-mix', style: 'warm', intensity: 2 };
const enhance = { enhancements: { noiseReduction: true, loudnessNormalization: false, speechEnhancement: false }, targetStems: { vocals: true, drums: false, bass: false, other: false } };
const video = { prompt: 'slow neon rain', duration: 'custom', customStart: 0, customEnd: 4, resolution: '720p' };

interface Job {
  id: string;
  type: string;
  status: string;
  progress: number;
  error?: string;
  queuePosition?: number;
}

/** Running = handed to a worker: processing without a place in the user's line. */
const isRunning = (job: Job) => job.status === 'processing' && job.queuePosition === undefined;

/**
 * Per-user concurrent studio jobs on the real stack: one person starts more mastering, enhance and video jobs
 * at once than they may run at once (the three types share one limit); none is refused, the extra ones wait
 * with their place in line (told again over /ws as they move up), start as the earlier ones end, and all complete.
 */
describe('tenant limits: concurrent mastering, enhance and video jobs per user', () => {
  let connection: mongoose.Connection;
  let person: SignedInAgent;
  let ownerId: string;
  let projectId: string;

  beforeAll(async () => {
    connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
    person = await signInExtraUser('jobs-line-person', 'Jobs', 'Line');
    ownerId = await ownerIdOf(person);
    ({ projectId } = await uploadSeparated(person, makeClip('jobs-line-12s.ogg', 12, { codecArgs: ['-c:a', 'libvorbis'] })));
    // A video needs the song's tempo: wait for its analysis.
    const until = Date.now() + 30_000;
    while (((await (await person.fetch(`/api/projects/${projectId}`)).json()) as { bpm: number | null }).bpm === null) {
      if (Date.now() > until) throw new Error(`project ${projectId} was not analysed`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }, 90_000);
  afterAll(() => connection.close());

  it(`runs ${PER_USER} of a user's jobs at once whatever their type, queues the rest with their place, and completes them all`, async () => {
    const live = await listen(person);
    try {
      const starts: Array<[string, unknown]> = [
        ['landr-master', mastering],
        ['dolby-enhance', enhance],
        ['runway-video', video],
        ['landr-master', { ...mastering, style: 'punchy' }],
      ];
      const answers = await Promise.all(
        starts.map(([path, parameters]) => person.fetch(`/api/jobs/${path}`, { method: 'POST', headers: json, body: JSON.stringify({ projectId, parameters }) })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(starts.length).fill(202));
      const created = (await Promise.all(answers.map((answer) => answer.json()))) as Job[];
      expect(created.every((job) => job.status === 'processing')).toBe(true);
      // Not refused: the ones beyond the user's slots wait, each with its own place, 1 = next.
      const places = created.map((job) => job.queuePosition).filter((place): place is number => place !== undefined);
      expect(places.sort()).toEqual(Array.from({ length: starts.length - PER_USER }, (_, i) => i + 1));
      const ids = new Set(created.map((job) => job.id));

      // Watch the project's jobs until all have ended: never more than PER_USER running at once.
      let mostRunning = 0;
      let listed: Job[] = [];
      const deadline = Date.now() + 150_000;
      for (;;) {
        listed = ((await (await person.fetch(`/api/projects/${projectId}/jobs`)).json()) as Job[]).filter((job) => ids.has(job.id));
        mostRunning = Math.max(mostRunning, listed.filter(isRunning).length);
        if (listed.length === starts.length && listed.every((job) => job.status !== 'processing')) break;
        if (Date.now() > deadline) throw new Error(`not every job ended in time: ${JSON.stringify(listed)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(mostRunning).toBeGreaterThan(0);
      expect(mostRunning).toBeLessThanOrEqual(PER_USER);
      expect(listed.map((job) => [job.type, job.status, job.error]).sort()).toEqual(
        [['enhance', 'completed', undefined], ['mastering', 'completed', undefined], ['mastering', 'completed', undefined], ['video', 'completed', undefined]],
      );
      expect(listed.every((job) => job.queuePosition === undefined)).toBe(true);

      // The last in line was told over /ws when it moved up to first.
      const moved = live.seen.filter((event) => event.type === 'job_progress' && (event.job as Job).queuePosition !== undefined);
      expect(moved.map((event) => (event.job as Job).queuePosition)).toContain(1);

      // Nothing is left holding a slot, none is left waiting, and each job ran once.
      expect(await connection.collection('job_slots').countDocuments({ kind: 'jobs', ownerId })).toBe(0);
      const stored = await connection.collection('jobs').find({ ownerId, _id: { $in: [...ids] as never[] } }).toArray();
      expect(stored.map((job) => [job.status, job.waiting, job.attempts])).toEqual(Array(starts.length).fill(['completed', false, 1]));
    } finally {
      live.close();
    }
  }, 240_000);

  it('cancels a waiting job: it ends at once, never runs, and the one behind it moves up', async () => {
    const start = () => person.fetch('/api/jobs/landr-master', { method: 'POST', headers: json, body: JSON.stringify({ projectId, parameters: mastering }) });
    const created = (await Promise.all(Array.from({ length: PER_USER + 2 }, async () => (await start()).json()))) as Job[];
    const [first, second] = created.filter((job) => job.queuePosition !== undefined).sort((a, b) => a.queuePosition! - b.queuePosition!);
    expect([first?.queuePosition, second?.queuePosition]).toEqual([1, 2]);

    const cancelled = await person.fetch(`/api/jobs/${first!.id}`, { method: 'DELETE', headers: CSRF });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ id: first!.id, status: 'failed', error: 'Cancelled' });
    const behind = (await (await person.fetch(`/api/jobs/${second!.id}`)).json()) as Job;
    // Moved up to 1st, unless a running job ended meanwhile and it already started.
    expect(behind.queuePosition === 1 || behind.queuePosition === undefined).toBe(true);

    const until = Date.now() + 120_000;
    for (;;) {
      const jobs = await Promise.all(created.map(async (job) => (await (await person.fetch(`/api/jobs/${job.id}`)).json()) as Job));
      if (jobs.every((job) => job.status !== 'processing')) {
        expect(jobs.map((job) => job.status)).toEqual(created.map((job) => (job.id === first!.id ? 'failed' : 'completed')));
        break;
      }
      if (Date.now() > until) throw new Error(`jobs still running: ${JSON.stringify(jobs)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const never = await connection.collection('jobs').findOne({ _id: first!.id as never });
    expect(never).toMatchObject({ status: 'failed', waiting: false, attempts: 0 });
    expect(await connection.collection('job_slots').countDocuments({ kind: 'jobs', ownerId })).toBe(0);
  }, 180_000);
});
