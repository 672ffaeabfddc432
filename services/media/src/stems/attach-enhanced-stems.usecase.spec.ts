import { enhanceJobPrefix } from '@stemdeck/proto';
import { FakeClock } from '../testing/fake-clock';
import { InMemoryProjectStore } from '../testing/in-memory-project-store';
import { InMemoryStems } from '../testing/in-memory-stems';
import { RecordingEvents } from '../testing/recording-publishers';
import { AttachEnhancedStemsUseCase } from './attach-enhanced-stems.usecase';

const OWNER = 'owner-1';
const RIVAL = 'owner-2';
const PROJECT = 'project-1';
const NOW = Date.parse('2026-11-23T16:00:00.000Z');

function setUp() {
  const projects = new InMemoryProjectStore();
  projects.add({ _id: PROJECT, ownerId: OWNER, activeEngine: 'fast' });
  projects.add({ _id: 'project-2', ownerId: OWNER, activeEngine: 'fast' });
  projects.add({ _id: 'rival-project', ownerId: RIVAL, activeEngine: 'fast' });
  const stems = new InMemoryStems();
  const vocals = stems.add({ ownerId: OWNER, projectId: PROJECT, type: 'vocals', volume: -3 });
  const drums = stems.add({ ownerId: OWNER, projectId: PROJECT, type: 'drums' });
  const otherProjects = stems.add({ ownerId: OWNER, projectId: 'project-2', type: 'vocals' });
  const rivals = stems.add({ ownerId: RIVAL, projectId: 'rival-project', type: 'vocals' });
  const events = new RecordingEvents();
  const useCase = new AttachEnhancedStemsUseCase(projects, stems, events, new FakeClock(NOW));
  const keyOf = (jobId: string, type: string) => `${enhanceJobPrefix(OWNER, PROJECT, jobId)}${type}.flac`;
  return { stems, events, useCase, vocals, drums, otherProjects, rivals, keyOf };
}

describe('AttachEnhancedStemsUseCase', () => {
  it('points each stem at its enhanced object and plays it, keeps the original key, and announces each stored stem', async () => {
    const { stems, events, useCase, vocals, drums, keyOf } = setUp();
    const attached = await useCase.execute({
      ownerId: OWNER,
      projectId: PROJECT,
      jobId: 'job-1',
      stems: [
        { stemId: vocals._id, objectKey: keyOf('job-1', 'vocals') },
        { stemId: drums._id, objectKey: keyOf('job-1', 'drums') },
      ],
    });

    const enhanced = { jobId: 'job-1', createdAt: '2026-11-23T16:00:00.000Z' };
    expect(attached).toEqual([
      expect.objectContaining({ id: vocals._id, type: 'vocals', volume: -3, version: 'enhanced', enhanced }),
      expect.objectContaining({ id: drums._id, type: 'drums', version: 'enhanced', enhanced }),
    ]);
    expect(stems.stored.get(vocals._id)).toMatchObject({
      objectKey: vocals.objectKey,
      version: 'enhanced',
      enhanced: { jobId: 'job-1', objectKey: keyOf('job-1', 'vocals'), createdAt: new Date(NOW) },
    });
    expect(events.published).toEqual(attached.map((stem) => ({ type: 'stem_updated', ownerId: OWNER, origin: null, stem, changes: { version: 'enhanced' } })));
  });

  it("replaces an older job's enhanced version with the newer one, and switches a stem back on original to it", async () => {
    const { stems, useCase, vocals, keyOf } = setUp();
    await useCase.execute({ ownerId: OWNER, projectId: PROJECT, jobId: 'job-1', stems: [{ stemId: vocals._id, objectKey: keyOf('job-1', 'vocals') }] });
    await stems.updateOwned(OWNER, vocals._id, { version: 'original' });

    const [stem] = await useCase.execute({ ownerId: OWNER, projectId: PROJECT, jobId: 'job-2', stems: [{ stemId: vocals._id, objectKey: keyOf('job-2', 'vocals') }] });

    expect(stem).toMatchObject({ version: 'enhanced', enhanced: { jobId: 'job-2' } });
    expect(stems.stored.get(vocals._id)?.enhanced?.objectKey).toBe(keyOf('job-2', 'vocals'));
    expect(stems.stored.get(vocals._id)?.objectKey).toBe(vocals.objectKey);
  });

  it.each([
    ["someone else's stem", (s: ReturnType<typeof setUp>) => s.rivals._id],
    ["a stem of the owner's other project", (s: ReturnType<typeof setUp>) => s.otherProjects._id],
    ['a missing stem', () => 'project-1-fast-kazoo'],
  ])('answers 404 for %s among the stems, changing and announcing nothing', async (_case, foreignStem) => {
    const setup = setUp();
    const { stems, events, useCase, vocals, keyOf } = setup;
    const before = structuredClone([...stems.stored.values()]);

    await expect(
      useCase.execute({
        ownerId: OWNER,
        projectId: PROJECT,
        jobId: 'job-1',
        stems: [
          { stemId: vocals._id, objectKey: keyOf('job-1', 'vocals') },
          { stemId: foreignStem(setup), objectKey: keyOf('job-1', 'other') },
        ],
      }),
    ).rejects.toMatchObject({ status: 404, message: 'Stem not found' });

    expect([...stems.stored.values()]).toEqual(before);
    expect(events.published).toEqual([]);
  });

  it("answers 404 for a project that is missing or someone else's", async () => {
    const { events, useCase, rivals } = setUp();
    await expect(
      useCase.execute({ ownerId: OWNER, projectId: 'rival-project', jobId: 'job-1', stems: [{ stemId: rivals._id, objectKey: `${enhanceJobPrefix(OWNER, 'rival-project', 'job-1')}vocals.flac` }] }),
    ).rejects.toMatchObject({ status: 404, message: 'Project not found' });
    expect(events.published).toEqual([]);
  });

  it("refuses an object outside the job's folder (another owner's, project's or job's file), changing nothing", async () => {
    const { stems, events, useCase, vocals, keyOf } = setUp();
    for (const objectKey of [
      `${enhanceJobPrefix(RIVAL, 'rival-project', 'job-1')}vocals.flac`,
      `${enhanceJobPrefix(OWNER, 'project-2', 'job-1')}vocals.flac`,
      keyOf('job-0', 'vocals'),
      enhanceJobPrefix(OWNER, PROJECT, 'job-1'),
      `users/${OWNER}/projects/${PROJECT}/original`,
    ]) {
      await expect(useCase.execute({ ownerId: OWNER, projectId: PROJECT, jobId: 'job-1', stems: [{ stemId: vocals._id, objectKey }] })).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('objectKey'),
      });
    }
    expect(stems.stored.get(vocals._id)).toEqual(vocals);
    expect(events.published).toEqual([]);
  });

  it('refuses a stem named twice', async () => {
    const { useCase, vocals, keyOf } = setUp();
    const twice = { stemId: vocals._id, objectKey: keyOf('job-1', 'vocals') };
    await expect(useCase.execute({ ownerId: OWNER, projectId: PROJECT, jobId: 'job-1', stems: [twice, twice] })).rejects.toMatchObject({ status: 400 });
  });
});
