import { MemorySlotBoard, OwnerJobSlots, STALE_CLAIM_MS, type WaitingJobs } from './owner-job-slots';

/** Jobs in memory: waiting in creation order, running once dispatched, finished when told. */
class MemoryJobs implements WaitingJobs {
  readonly state = new Map<string, { ownerId: string; status: 'waiting' | 'running' | 'finished' }>();
  readonly dispatched: string[] = [];
  readonly told: Array<{ ownerId: string; positions: Array<{ jobId: string; position: number }> }> = [];
  failDispatch = new Set<string>();
  add(ownerId: string, jobId: string) {
    this.state.set(jobId, { ownerId, status: 'waiting' });
  }
  async waiting(ownerId: string) {
    return [...this.state].filter(([, job]) => job.ownerId === ownerId && job.status === 'waiting').map(([id]) => id);
  }
  async ownersWaiting() {
    return [...new Set([...this.state.values()].filter((job) => job.status === 'waiting').map((job) => job.ownerId))];
  }
  async holdsSlot(_ownerId: string, jobId: string) {
    const job = this.state.get(jobId);
    return !!job && job.status !== 'finished';
  }
  async leaveWaiting(_ownerId: string, jobId: string) {
    const job = this.state.get(jobId)!;
    if (job.status !== 'waiting') return false;
    job.status = 'running';
    return true;
  }
  async dispatch(_ownerId: string, jobId: string) {
    if (this.failDispatch.has(jobId)) {
      this.state.get(jobId)!.status = 'finished';
      throw new Error('queue unavailable');
    }
    this.dispatched.push(jobId);
  }
  positionsChanged(ownerId: string, positions: ReadonlyArray<{ jobId: string; position: number }>) {
    this.told.push({ ownerId, positions: [...positions] });
  }
  finish(jobId: string) {
    this.state.get(jobId)!.status = 'finished';
  }
  running(ownerId: string) {
    return [...this.state].filter(([, job]) => job.ownerId === ownerId && job.status === 'running').map(([id]) => id);
  }
}

describe('OwnerJobSlots', () => {
  const setup = (perOwner = 2) => {
    const board = new MemorySlotBoard();
    const jobs = new MemoryJobs();
    return { board, jobs, slots: new OwnerJobSlots('separation', perOwner, board, jobs) };
  };

  it('starts up to the limit per owner and gives the rest their place in line', async () => {
    const { jobs, slots } = setup(2);
    const places: Array<number | null> = [];
    for (const id of ['a1', 'a2', 'a3', 'a4']) {
      jobs.add('alice', id);
      places.push(await slots.admit('alice', id));
    }
    expect(places).toEqual([null, null, 1, 2]);
    expect(jobs.dispatched).toEqual(['a1', 'a2']);
    expect(jobs.running('alice')).toEqual(['a1', 'a2']);
  });

  it('another owner is not held back by the first one’s line', async () => {
    const { jobs, slots } = setup(1);
    for (const id of ['a1', 'a2', 'a3']) {
      jobs.add('alice', id);
      await slots.admit('alice', id);
    }
    jobs.add('bob', 'b1');
    expect(await slots.admit('bob', 'b1')).toBeNull();
    expect(jobs.dispatched).toEqual(['a1', 'b1']);
  });

  it('a finished job hands its slot to the oldest waiting one and the rest move up', async () => {
    const { jobs, slots } = setup(1);
    for (const id of ['a1', 'a2', 'a3']) {
      jobs.add('alice', id);
      await slots.admit('alice', id);
    }
    jobs.finish('a1');
    await slots.release('alice', 'a1');
    expect(jobs.dispatched).toEqual(['a1', 'a2']);
    expect(jobs.told.at(-1)).toEqual({ ownerId: 'alice', positions: [{ jobId: 'a3', position: 1 }] });
    expect(await slots.positions('alice')).toEqual(new Map([['a3', 1]]));
  });

  it('a new job does not jump ahead of older waiting ones', async () => {
    const { jobs, slots, board } = setup(1);
    for (const id of ['a1', 'a2']) {
      jobs.add('alice', id);
      await slots.admit('alice', id);
    }
    // a1 ends but its release is lost (a crash): a2 still waits; a3 arrives.
    jobs.finish('a1');
    jobs.add('alice', 'a3');
    expect(await slots.admit('alice', 'a3')).toBe(2);
    // The sweep frees the dead job's slot and starts the oldest waiting one.
    expect(await slots.sweep()).toEqual({ freed: 1, owners: 1 });
    expect(jobs.dispatched).toEqual(['a1', 'a2']);
    expect([...board.slots.values()].map((claim) => claim.jobId)).toEqual(['a2']);
  });

  it('a job its queue refused gives its slot back; the next ones wait for the sweep instead of failing in turn', async () => {
    const { jobs, slots, board } = setup(1);
    jobs.failDispatch.add('a1');
    jobs.add('alice', 'a1');
    jobs.add('alice', 'a2');
    await slots.admit('alice', 'a1');
    expect(jobs.dispatched).toEqual([]);
    expect(board.slots.size).toBe(0);
    expect(await jobs.waiting('alice')).toEqual(['a2']);
    await slots.sweep();
    expect(jobs.dispatched).toEqual(['a2']);
  });

  it('a job whose claim was left behind (its start failed) takes its own slot up again instead of blocking the line', async () => {
    const { jobs, slots, board } = setup(1);
    jobs.add('alice', 'a1');
    jobs.add('alice', 'a2');
    // a1's slot was claimed, then taking it out of waiting failed (the database away): a1 still waits.
    await board.claim('separation:alice:0', { kind: 'separation', ownerId: 'alice', jobId: 'a1' });
    // A fresh claim may be a start under way elsewhere: left alone; once stale, freed and a1 started.
    expect(await slots.sweep()).toEqual({ freed: 0, owners: 1 });
    expect(jobs.dispatched).toEqual([]);
    expect(await slots.sweep(Date.now() + STALE_CLAIM_MS)).toEqual({ freed: 1, owners: 1 });
    expect(jobs.dispatched).toEqual(['a1']);
    expect(await slots.positions('alice')).toEqual(new Map([['a2', 1]]));
  });

  it('admissions at the same moment never exceed the limit', async () => {
    const { jobs, slots } = setup(2);
    const ids = Array.from({ length: 8 }, (_, i) => `a${i}`);
    for (const id of ids) jobs.add('alice', id);
    await Promise.all(ids.map((id) => slots.admit('alice', id)));
    expect(jobs.running('alice')).toHaveLength(2);
  });

  it('two processes sharing the board never start one job twice nor exceed the limit', async () => {
    const board = new MemorySlotBoard();
    const jobs = new MemoryJobs();
    const one = new OwnerJobSlots('separation', 2, board, jobs);
    const two = new OwnerJobSlots('separation', 2, board, jobs);
    for (const id of ['a1', 'a2', 'a3']) jobs.add('alice', id);
    await Promise.all([one.admit('alice', 'a1'), two.admit('alice', 'a2'), one.admit('alice', 'a3'), two.sweep()]);
    expect(jobs.dispatched.sort()).toEqual(['a1', 'a2']);
    expect(board.slots.size).toBe(2);
  });
});
