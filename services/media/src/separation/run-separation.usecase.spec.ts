import { STEM_TYPES, type StemSet, type StereoAudio } from '@stemdeck/audio';
import type { MediaEvent, SeparationJobMessage } from '@stemdeck/proto';
import { DecodedAudioCache } from '../media-tools/decoded-audio.cache';
import { RunSeparationUseCase, PROGRESSIVE_HEAD_SECONDS } from './run-separation.usecase';
import type { SeparationWorkItem } from './separation-queue';

const RATE = 8000;
const silence = (seconds: number): StereoAudio => ({
  sampleRate: RATE,
  left: new Float32Array(seconds * RATE),
  right: new Float32Array(seconds * RATE),
});
const stemsOf = (audio: StereoAudio): StemSet =>
  Object.fromEntries(STEM_TYPES.map((type) => [type, audio])) as unknown as StemSet;

/**
 * The use case against in-memory stand-ins for its repositories and storage (unit level; the real
 * NATS/FerretDB/MinIO path is covered by test/integration/media-projects.int-spec.ts).
 */
function setUp(seconds: number, failWhole: boolean) {
  const objects = new Map<string, number>();
  const stemDocs = new Map<string, { ownerId: string; projectId: string; engine: string; type: string }>();
  const events: MediaEvent[] = [];
  const separated: number[] = [];
  const job = { _id: 'job-1', status: 'queued' };
  const decoded = new DecodedAudioCache();
  decoded.put('audio-key', silence(seconds));
  const useCase = new RunSeparationUseCase(
    { findOwned: async () => ({ audioKey: 'audio-key' }), setActiveEngine: async () => undefined } as never,
    {
      upsert: async (stem: { projectId: string; engine: string; type: string; ownerId: string }) => {
        stemDocs.set(`${stem.projectId}-${stem.engine}-${stem.type}`, stem);
      },
      listOwned: async () => [...stemDocs.entries()].map(([_id, doc]) => ({ _id, volume: 0, muted: false, quality: 'good', ...doc })),
      deleteForEngine: async () => stemDocs.clear(),
    } as never,
    {
      findOwned: async () => job,
      markProcessing: async () => undefined,
      setProgress: async () => undefined,
      finish: async (_owner: string, _id: string, status: string) => void (job.status = status),
    } as never,
    {
      get: () => ({
        separate: async (audio: StereoAudio) => {
          separated.push(audio.left.length / RATE);
          if (failWhole && audio.left.length === seconds * RATE) throw new Error('engine crashed');
          return stemsOf(audio);
        },
      }),
    } as never,
    {
      putBuffer: async (key: string, body: Buffer) => void objects.set(key, body.length),
      removePrefix: async (prefix: string) => [...objects.keys()].filter((k) => k.startsWith(prefix)).forEach((k) => objects.delete(k)),
    } as never,
    {} as never,
    { publish: (event: MediaEvent) => events.push(event) } as never,
    decoded,
  );
  const payload: SeparationJobMessage = { jobId: 'job-1', ownerId: 'owner', projectId: 'p1', engine: 'fast' };
  const item = { payload, deliveryCount: 1, isLastAttempt: true, heartbeat: () => undefined } as unknown as SeparationWorkItem;
  return { useCase, item, objects, stemDocs, events, separated, job };
}

describe('RunSeparationUseCase', () => {
  it('stores the first seconds of every stem before the whole song (progressive stems)', async () => {
    const { useCase, item, objects, events, separated } = setUp(30, false);
    expect(await useCase.execute(item)).toBe('done');
    expect(separated).toEqual([PROGRESSIVE_HEAD_SECONDS, 30]);
    const types = events.map((e) => e.type).filter((t) => t !== 'stems_progress');
    expect(types).toEqual(['stems_partial', 'stems_ready']);
    const partial = events.find((e) => e.type === 'stems_partial') as Extract<MediaEvent, { type: 'stems_partial' }>;
    expect(partial.seconds).toBe(PROGRESSIVE_HEAD_SECONDS);
    expect(partial.stems.map((s) => s.type)).toEqual([...STEM_TYPES]);
    // The whole stems replaced the first seconds at the same keys: 16-bit stereo WAV of 30 s.
    expect([...objects.values()]).toEqual(Array(4).fill(44 + 30 * RATE * 4));
  });

  it('separates short songs in one pass', async () => {
    const { useCase, item, events, separated } = setUp(2 * PROGRESSIVE_HEAD_SECONDS - 1, false);
    await useCase.execute(item);
    expect(separated).toEqual([2 * PROGRESSIVE_HEAD_SECONDS - 1]);
    expect(events.some((e) => e.type === 'stems_partial')).toBe(false);
  });

  it('removes partial stems, objects and documents, when the job finally fails', async () => {
    const { useCase, item, objects, stemDocs, events, job } = setUp(30, true);
    expect(await useCase.execute(item)).toBe('give-up');
    expect(events.map((e) => e.type)).toContain('stems_partial');
    expect(events.at(-1)).toMatchObject({ type: 'stems_failed', message: 'Stem separation failed' });
    expect(job.status).toBe('failed');
    expect(objects.size).toBe(0);
    expect(stemDocs.size).toBe(0);
  });
});
