import type { StereoAudio } from '@stemdeck/audio';
import { originalKey, projectPrefix, type IngestUploadRequest, type SeparationJob } from '@stemdeck/proto';
import { FakeClock } from '../testing/fake-clock';
import { FakeMediaTools } from '../testing/fake-media-tools';
import { InMemoryProjects } from '../testing/in-memory-projects';
import { InMemoryStemStorage, memoryUrl } from '../testing/in-memory-stem-storage';
import { IngestUploadUseCase, NO_SOUND, NOT_MEDIA, TOO_SHORT, UNREADABLE } from './ingest-upload.usecase';
import type { FirstJob } from './ingest.ports';

const RATE = 8000;
const OWNER = 'owner';
const PROJECT = '6f0d7a0e-4c36-4d5e-9d7e-0b3c1f2a9e11';
const KEY = originalKey(OWNER, PROJECT);
const tone = (seconds: number): StereoAudio => {
  const left = new Float32Array(Math.round(seconds * RATE)).map((_, i) => 0.2 * Math.sin(i / 5));
  return { sampleRate: RATE, left, right: left.slice() };
};

/** The first job as a list of what was queued; `failure` makes queueing fail. */
class RecordingFirstJob implements FirstJob {
  readonly requested: Array<{ ownerId: string; projectId: string; engine: 'fast' }> = [];
  failure?: Error;

  async execute(request: { ownerId: string; projectId: string; engine: 'fast' }): Promise<SeparationJob> {
    if (this.failure) throw this.failure;
    this.requested.push(request);
    return { id: 'job-1', projectId: request.projectId, engine: 'fast', status: 'queued', progress: 0, error: null, partialSeconds: null };
  }
}

/**
 * The upload's content check against in-memory fakes (the real ffprobe/ffmpeg, MinIO and FerretDB path is
 * test/integration/media-upload.int-spec.ts and media-edge.int-spec.ts).
 */
function setUp(file: { bytes?: Buffer; audio?: StereoAudio; video?: boolean; failAfterFrames?: number }) {
  const storage = new InMemoryStemStorage();
  void storage.putBuffer(KEY, file.bytes ?? Buffer.from('RIFF....WAVEfmt '), 'application/octet-stream');
  const tools = new FakeMediaTools();
  if (file.audio) tools.add(memoryUrl(KEY), file.audio, { video: file.video, failAfterFrames: file.failAfterFrames });
  const projects = new InMemoryProjects();
  const firstJob = new RecordingFirstJob();
  const removed: string[] = [];
  const removal = {
    execute: async (ownerId: string, projectId: string) => {
      removed.push(projectId);
      projects.delete(projectId);
      await storage.removePrefix(projectPrefix(ownerId, projectId));
    },
  };
  const useCase = new IngestUploadUseCase(storage, tools, projects, firstJob, removal, new FakeClock(1_700_000_000_000));
  const request: IngestUploadRequest = { ownerId: OWNER, projectId: PROJECT, objectKey: KEY, fileName: 'My Song.final.mp3', sizeBytes: 16 };
  return { useCase, request, storage, tools, projects, firstJob, removed };
}

describe('IngestUploadUseCase', () => {
  it('answers with the project and its queued job once a quarter second of sound has decoded, without decoding the rest', async () => {
    const { useCase, request, projects, firstJob, tools } = setUp({ audio: tone(30) });
    const answer = await useCase.execute(request);
    expect(answer.project).toMatchObject({ id: PROJECT, name: 'My Song.final', originalFile: 'My Song.final.mp3', duration: 30, bpm: null, key: null, source: 'audio' });
    expect(answer.job).toMatchObject({ id: 'job-1', status: 'queued' });
    expect(firstJob.requested).toEqual([{ ownerId: OWNER, projectId: PROJECT, engine: 'fast' }]);
    expect(projects.stored.get(PROJECT)).toMatchObject({ audioKey: KEY, originalKey: KEY, analysis: null, createdAt: new Date(1_700_000_000_000) });
    // What the probe found is kept for the job, which reads the same object.
    expect(projects.stored.get(PROJECT)?.audioProbe).toMatchObject({ durationSeconds: 30, audio: { sampleRate: RATE } });
    // The decode was stopped after its first chunk: the analysis is the job's.
    expect(tools.decodes).toBe(1);
    expect(tools.stoppedEarly).toBe(1);
  });

  it("leaves a video's audio track to the job: the project has no audio until it is extracted", async () => {
    const { useCase, request, projects } = setUp({ audio: tone(30), video: true });
    const answer = await useCase.execute(request);
    expect(answer.project.source).toBe('video');
    expect(projects.stored.get(PROJECT)).toMatchObject({ audioKey: null, originalKey: KEY, audioContentType: 'audio/flac', audioProbe: null });
  });

  it.each([
    ['an empty file', { bytes: Buffer.alloc(0) }, 422, UNREADABLE],
    ['a file that is not media', { bytes: Buffer.from('these are my lyrics\n') }, 415, NOT_MEDIA],
    ['media-looking bytes ffprobe cannot read', { bytes: Buffer.from('RIFF\x24\x00\x10\x00WAVEfmt ', 'latin1') }, 422, UNREADABLE],
    ['a recording with no samples', { audio: tone(0) }, 422, UNREADABLE],
    ['a recording shorter than a quarter second', { audio: tone(0.1) }, 422, TOO_SHORT],
    ['a recording whose decode fails at once', { audio: tone(30), failAfterFrames: 0 }, 422, UNREADABLE],
  ])('refuses %s (%i) and leaves nothing stored', async (_name, file, status, message) => {
    const { useCase, request, storage, projects, firstJob } = setUp(file);
    await expect(useCase.execute(request)).rejects.toMatchObject({ status, message });
    expect(storage.objects.size).toBe(0);
    expect(projects.stored.size).toBe(0);
    expect(firstJob.requested).toEqual([]);
  });

  it('refuses a video without an audio track (422)', async () => {
    const { useCase, request, tools, storage } = setUp({ audio: tone(1), video: true });
    const probe = tools.probe.bind(tools);
    tools.probe = async (input) => ({ ...(await probe(input)), audio: undefined });
    await expect(useCase.execute(request)).rejects.toMatchObject({ status: 422, message: NO_SOUND });
    expect(storage.objects.size).toBe(0);
  });

  it('removes the project again when its job cannot be queued', async () => {
    const { useCase, request, storage, projects, firstJob, removed } = setUp({ audio: tone(30) });
    firstJob.failure = new Error('nats: timeout');
    await expect(useCase.execute(request)).rejects.toThrow('nats: timeout');
    expect(removed).toEqual([PROJECT]);
    expect(projects.stored.size).toBe(0);
    expect(storage.objects.size).toBe(0);
  });
});
