import mongoose from 'mongoose';
import { listen, makeClip, ownerIdOf, upload } from '../support/media';
import { signInExtraUser } from '../support/sessions';
import type { SignedInAgent } from '../support/sign-in';

/** The stack's separations per user (SEPARATION_JOBS_PER_USER, default 2). */
const PER_USER = 2;
const SONGS = 4;

interface ListedJob {
  id: string;
  engine: string;
  status: string;
  progress: number;
  queuePosition?: number;
}
interface ListedProject {
  id: string;
  activeEngine: string | null;
  jobs?: ListedJob[];
}

/** Running = handed to a worker: processing, or queued without a place in the user's line. */
const isRunning = (job: ListedJob) => job.status === 'processing' || (job.status === 'queued' && job.queuePosition === undefined);

/**
 * Per-user concurrent separations on the real stack: one person uploads more songs at once than they may
 * separate at once; the rest are not refused but wait with their place in line, start as the earlier ones
 * finish, and every song gets its stems. Another person's upload meanwhile starts at once.
 */
describe('tenant limits: concurrent separations per user', () => {
  let connection: mongoose.Connection;
  let person: SignedInAgent;
  let other: SignedInAgent;

  beforeAll(async () => {
    connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
    [person, other] = await Promise.all([signInExtraUser('line-person', 'Line', 'Person'), signInExtraUser('line-other', 'Line', 'Other')]);
  }, 60_000);
  afterAll(() => connection.close());

  /** The user's slots once the last job has given its back (stems_ready goes out just before the release). */
  async function slotsHeldBy(ownerId: string): Promise<number> {
    const count = () => connection.collection('job_slots').countDocuments({ kind: 'separation', ownerId });
    for (const until = Date.now() + 5000; Date.now() < until && (await count()) > 0; ) await new Promise((resolve) => setTimeout(resolve, 100));
    return count();
  }

  it(`runs ${PER_USER} of a user's separations at once, queues the rest with their place, and finishes them all`, async () => {
    // Long enough that the first songs are still separating when the last uploads are answered.
    const song = makeClip('queue-40s.wav', 40);
    const ownerId = await ownerIdOf(person);
    const live = await listen(person);
    try {
      const answers = await Promise.all(Array.from({ length: SONGS }, (_, i) => upload(person, song, { fileName: `queued song ${i + 1}.wav` })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(SONGS).fill(201));
      const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Array<{ project: { id: string }; job: ListedJob }>;
      const places = bodies.map((body) => body.job.queuePosition).filter((place): place is number => place !== undefined);
      // Not refused: the ones beyond the user's slots wait, each with its own place, 1 = next.
      expect(places.sort()).toEqual(Array.from({ length: SONGS - PER_USER }, (_, i) => i + 1));
      const projectIds = new Set(bodies.map((body) => body.project.id));

      // Someone else is not held back by that line.
      const theirs = await upload(other, song, { fileName: 'not queued.wav' });
      expect(theirs.status).toBe(201);
      expect(((await theirs.json()) as { job: ListedJob }).job.queuePosition).toBeUndefined();

      // Watch the library until every song has stems: never more than PER_USER running at once.
      let mostRunning = 0;
      const deadline = Date.now() + 180_000;
      for (;;) {
        const listed = ((await (await person.fetch('/api/projects')).json()) as ListedProject[]).filter((project) => projectIds.has(project.id));
        const jobs = listed.flatMap((project) => project.jobs ?? []);
        mostRunning = Math.max(mostRunning, jobs.filter(isRunning).length);
        if (listed.length === SONGS && listed.every((project) => project.activeEngine === 'fast')) break;
        if (Date.now() > deadline) throw new Error(`not every song was separated in time: ${JSON.stringify(listed.map((p) => p.jobs))}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(mostRunning).toBeGreaterThan(0);
      expect(mostRunning).toBeLessThanOrEqual(PER_USER);

      // The last in line was told when it moved up to first, and every song was announced ready.
      const moved = live.seen.filter((event) => event.type === 'stems_queued');
      expect(moved.map((event) => event.position)).toContain(1);
      for (const projectId of projectIds) await live.waitFor((event) => event.type === 'stems_ready' && event.projectId === projectId);

      // Nothing is left holding a slot, and each song was separated once.
      expect(await slotsHeldBy(ownerId)).toBe(0);
      const jobs = await connection.collection('separation_jobs').find({ ownerId, projectId: { $in: [...projectIds] } }).toArray();
      expect(jobs.map((job) => [job.status, job.waiting, job.attempts])).toEqual(Array(SONGS).fill(['completed', false, 1]));
    } finally {
      live.close();
    }
  }, 240_000);

  it('frees the slots of jobs that ended without giving them back (a crash) and starts the waiting song', async () => {
    // As if a media process had died after its jobs ended but before it gave their slots back. The sweep runs
    // every 15 s and may free those slots between their insert and the upload (then the song starts at once and
    // proves nothing here): such a try is counted and another user tries again, at most three times.
    const slots = connection.collection<{ _id: string }>('job_slots');
    let queuedBehindStrandedSlots = false;
    for (let attempt = 1; attempt <= 3 && !queuedBehindStrandedSlots; attempt++) {
      const stranded = await signInExtraUser(`line-stranded-${attempt}`, 'Line', `Stranded ${attempt}`);
      const ownerId = await ownerIdOf(stranded);
      for (let n = 0; n < PER_USER; n++) {
        await slots.insertOne({ _id: `separation:${ownerId}:${n}`, kind: 'separation', ownerId, jobId: `ended-long-ago-${n}`, claimedAt: new Date() });
      }
      const live = await listen(stranded);
      try {
        const answer = await upload(stranded, makeClip('queue-12s.wav', 12), { fileName: 'after a crash.wav' });
        expect(answer.status).toBe(201);
        const { project, job } = (await answer.json()) as { project: { id: string }; job: ListedJob };
        queuedBehindStrandedSlots = job.queuePosition === 1;
        if (!queuedBehindStrandedSlots) expect(job.queuePosition).toBeUndefined();
        // The media service's sweep (every 15 s on this stack) finds the slots' jobs gone and starts this one.
        await live.waitFor((event) => event.type === 'stems_ready' && event.projectId === project.id, 60_000);
        expect(await slotsHeldBy(ownerId)).toBe(0);
      } finally {
        live.close();
      }
    }
    expect(queuedBehindStrandedSlots).toBe(true);
  }, 240_000);
});
