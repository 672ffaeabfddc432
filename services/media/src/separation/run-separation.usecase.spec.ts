import { STEM_TYPES, type FlacStreamEncoder, type StemSet, type StereoAudio } from '@stemdeck/audio';
import type { EngineName, MediaEvent, SeparationJobMessage } from '@stemdeck/proto';
import { PassThrough } from 'node:stream';
import { DecodedAudioCache } from '../media-tools/decoded-audio.cache';
import { gaveUpMessage, PROGRESSIVE_HEAD_SECONDS, RunSeparationUseCase } from './run-separation.usecase';
import type { SeparationWorkItem } from './separation-queue';

jest.setTimeout(30_000);

const RATE = 8000;
const ATTEMPTS = 3;
const tone = (seconds: number): StereoAudio => {
  const left = new Float32Array(seconds * RATE).map((_, i) => 0.2 * Math.sin(i / 5));
  return { sampleRate: RATE, left, right: left.slice() };
};
const stemsOf = (audio: StereoAudio): StemSet => Object.fromEntries(STEM_TYPES.map((type) => [type, audio])) as unknown as StemSet;

/** Stands in for ffmpeg's FLAC encoder: 8 bytes out per frame in, so stored sizes show how many frames were written. */
class FakeEncoder {
  readonly output = new PassThrough();
  readonly done: Promise<void>;
  private settle!: (error?: Error) => void;
  constructor() {
    this.done = new Promise((resolve, reject) => (this.settle = (error) => (error ? reject(error) : resolve())));
    this.done.catch(() => undefined);
  }
  async write(left: Float32Array): Promise<void> {
    this.output.write(Buffer.alloc(left.length * 8));
  }
  end(): Promise<void> {
    this.output.end();
    this.settle();
    return this.done;
  }
  abort(): void {
    this.settle(new Error('aborted'));
    this.output.end();
  }
}

/**
 * The use case against small in-memory fakes of its repositories, storage and tools (unit level; the
 * real NATS/FerretDB/MinIO/ffmpeg path is covered by test/integration/media-*.int-spec.ts).
 */
function setUp(seconds: number, options: { engine?: EngineName; failWhole?: boolean; deleteAfterHead?: boolean } = {}) {
  const objects = new Map<string, number>();
  const stemDocs = new Map<string, { ownerId: string; projectId: string; engine: string; type: string }>();
  const events: MediaEvent[] = [];
  const separated: number[] = [];
  const job = { _id: 'job-1', status: 'queued', error: null as string | null };
  let projectExists = true;
  const decoded = new DecodedAudioCache();
  decoded.put('audio-key', tone(seconds));
  const projects = {
    findOwned: async () => (projectExists ? { audioKey: 'audio-key', duration: seconds } : null),
    setActiveEngine: async () => undefined,
  };
  const stems = {
    upsert: async (stem: { projectId: string; engine: string; type: string; ownerId: string }) => {
      stemDocs.set(`${stem.projectId}-${stem.engine}-${stem.type}`, stem);
    },
    listOwned: async () => [...stemDocs.entries()].map(([_id, doc]) => ({ _id, volume: 0, muted: false, quality: 'good', ...doc })),
    deleteForEngine: async () => stemDocs.clear(),
  };
  const jobs = {
    findOwned: async () => job,
    markProcessing: async () => undefined,
    setProgress: async () => undefined,
    finish: async (_owner: string, _id: string, status: string, error: string | null = null) => void Object.assign(job, { status, error }),
  };
  const engine = {
    separate: async (audio: StereoAudio) => {
      separated.push(audio.left.length / RATE);
      return stemsOf(audio);
    },
    // Passes each chunk through as four stems, as a model engine's stream hands back what it finished.
    separateStream: async (chunks: AsyncIterable<StereoAudio>, write: (stems: StemSet) => Promise<void>) => {
      let frames = 0;
      for await (const chunk of chunks) {
        frames += chunk.left.length;
        if (options.failWhole && frames > seconds * RATE * 0.5) throw new Error('engine crashed');
        await write(stemsOf(chunk));
      }
      separated.push(frames / RATE);
      return { frames, sampleRate: RATE };
    },
  };
  const engines = { get: () => engine, model: () => engine };
  const storage = {
    putStream: async (key: string, body: AsyncIterable<Buffer>) => {
      let bytes = 0;
      for await (const chunk of body) bytes += chunk.length;
      objects.set(key, bytes);
    },
    putBuffer: async (key: string, body: Buffer) => void objects.set(key, body.length),
    removePrefix: async (prefix: string) => [...objects.keys()].filter((k) => k.startsWith(prefix)).forEach((k) => objects.delete(k)),
  };
  const publish = (event: MediaEvent) => {
    events.push(event);
    if (event.type === 'stems_partial' && options.deleteAfterHead) projectExists = false;
  };
  const tools = { flacEncoder: () => new FakeEncoder() as unknown as FlacStreamEncoder };
  const useCase = new RunSeparationUseCase(
    projects as never,
    stems as never,
    jobs as never,
    engines as never,
    storage as never,
    tools as never,
    { publish } as never,
    decoded,
    { SEPARATION_MAX_DELIVER: ATTEMPTS },
  );
  const payload: SeparationJobMessage = { jobId: 'job-1', ownerId: 'owner', projectId: 'p1', engine: options.engine ?? 'fast' };
  const item = (deliveryCount: number) => ({ payload, deliveryCount, isLastAttempt: false, heartbeat: () => undefined }) as unknown as SeparationWorkItem;
  return { useCase, item, objects, stemDocs, events, separated, job };
}

describe('RunSeparationUseCase', () => {
  it('stores the first seconds of every stem, then streams the whole song over them (progressive stems)', async () => {
    const { useCase, item, objects, events, separated } = setUp(30);
    expect(await useCase.execute(item(1))).toBe('done');
    // The fast engine ran in this thread on the head and streamed over the whole song: the registry's was not asked.
    expect(separated).toEqual([]);
    const types = events.map((e) => e.type).filter((t) => t !== 'stems_progress');
    expect(types).toEqual(['stems_partial', 'stems_ready']);
    const partial = events.find((e) => e.type === 'stems_partial') as Extract<MediaEvent, { type: 'stems_partial' }>;
    expect(partial.stems.map((s) => s.type)).toEqual([...STEM_TYPES]);
    expect([...objects.keys()].sort()).toEqual(STEM_TYPES.map((t) => `users/owner/projects/p1/stems/fast/${t}.flac`).sort());
    // The whole stems replaced the first seconds at the same keys: every frame of the 30 s written once.
    expect([...objects.values()]).toEqual(Array(4).fill(30 * RATE * 8));
  });

  it('streams the whole song through a model engine too (its first seconds separated apart)', async () => {
    const { useCase, item, objects, events, separated } = setUp(30, { engine: 'hybrid' });
    expect(await useCase.execute(item(1))).toBe('done');
    expect(separated).toEqual([PROGRESSIVE_HEAD_SECONDS, 30]);
    expect(events.map((e) => e.type).filter((t) => t !== 'stems_progress')).toEqual(['stems_partial', 'stems_ready']);
    expect([...objects.values()]).toEqual(Array(4).fill(30 * RATE * 8));
  });

  it('separates short songs in one pass', async () => {
    const { useCase, item, events, objects } = setUp(2 * PROGRESSIVE_HEAD_SECONDS - 1);
    await useCase.execute(item(1));
    expect(events.some((e) => e.type === 'stems_partial')).toBe(false);
    expect([...objects.values()]).toEqual(Array(4).fill((2 * PROGRESSIVE_HEAD_SECONDS - 1) * RATE * 8));
  });

  it('retries before the last attempt, and on the last removes partial stems, objects and documents', async () => {
    const first = setUp(30, { engine: 'hybrid', failWhole: true });
    expect(await first.useCase.execute(first.item(ATTEMPTS - 1))).toBe('retry');
    const { useCase, item, objects, stemDocs, events, job } = setUp(30, { engine: 'hybrid', failWhole: true });
    expect(await useCase.execute(item(ATTEMPTS))).toBe('give-up');
    expect(events.map((e) => e.type)).toContain('stems_partial');
    expect(events.at(-1)).toMatchObject({ type: 'stems_failed', message: 'Stem separation failed' });
    expect(job).toMatchObject({ status: 'failed', error: 'engine crashed' });
    expect(objects.size).toBe(0);
    expect(stemDocs.size).toBe(0);
  });

  it('marks a job failed without running it on the delivery after the last attempt (every attempt died)', async () => {
    const { useCase, item, events, job, separated } = setUp(30);
    expect(await useCase.execute(item(ATTEMPTS + 1))).toBe('give-up');
    expect(separated).toEqual([]);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/stopped during each of 3 attempts/);
    expect(events).toEqual([{ type: 'stems_failed', ownerId: 'owner', projectId: 'p1', engine: 'fast', message: gaveUpMessage(ATTEMPTS) }]);
  });

  it('leaves nothing behind when the project is deleted while its stems are made', async () => {
    const { useCase, item, objects, stemDocs, events, job } = setUp(30, { deleteAfterHead: true });
    expect(await useCase.execute(item(1))).toBe('done');
    expect(events.some((e) => e.type === 'stems_ready')).toBe(false);
    expect(job.status).toBe('failed');
    expect(objects.size).toBe(0);
    expect(stemDocs.size).toBe(0);
  });
});
