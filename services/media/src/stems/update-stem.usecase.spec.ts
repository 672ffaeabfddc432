import { InMemoryStems } from '../testing/in-memory-stems';
import { RecordingEvents } from '../testing/recording-publishers';
import { UpdateStemUseCase } from './update-stem.usecase';

const OWNER = 'owner-1';
const ENHANCED = { jobId: 'job-1', objectKey: 'users/owner-1/projects/project-1/enhanced/job-1/drums.flac', createdAt: new Date('2026-11-23T16:00:00.000Z') };

function setUp() {
  const stems = new InMemoryStems();
  const vocals = stems.add({ ownerId: OWNER, projectId: 'project-1', type: 'vocals', objectKey: 'k.flac' });
  const drums = stems.add({ ownerId: OWNER, projectId: 'project-1', type: 'drums', version: 'enhanced', enhanced: ENHANCED });
  const events = new RecordingEvents();
  const useCase = new UpdateStemUseCase(stems, events);
  return { stems, events, useCase, vocals, drums };
}

describe('UpdateStemUseCase', () => {
  it("stores the change, then announces the stored stem and the changed fields with the change's origin", async () => {
    const { stems, events, useCase, vocals } = setUp();
    const stem = await useCase.execute({ ownerId: OWNER, stemId: vocals._id, changes: { volume: -6.5, muted: true }, origin: 'tab-a' });
    expect(stem).toEqual({
      id: vocals._id,
      projectId: 'project-1',
      type: 'vocals',
      engine: 'fast',
      volume: -6.5,
      muted: true,
      soloed: false,
      quality: 'fast',
      version: 'original',
      enhanced: null,
    });
    expect(stems.stored.get(vocals._id)).toMatchObject({ volume: -6.5, muted: true });
    expect(events.published).toEqual([{ type: 'stem_updated', ownerId: OWNER, origin: 'tab-a', stem, changes: { volume: -6.5, muted: true } }]);
  });

  it("answers 404 for a stem that is missing or someone else's, announcing nothing", async () => {
    const { stems, events, useCase, vocals } = setUp();
    await expect(useCase.execute({ ownerId: 'rival', stemId: vocals._id, changes: { muted: true }, origin: null })).rejects.toMatchObject({ status: 404 });
    await expect(useCase.execute({ ownerId: OWNER, stemId: 'nope', changes: { muted: true }, origin: null })).rejects.toMatchObject({ status: 404 });
    await expect(useCase.execute({ ownerId: 'rival', stemId: vocals._id, changes: { version: 'enhanced' }, origin: null })).rejects.toMatchObject({ status: 404 });
    expect(stems.stored.get(vocals._id)?.muted).toBe(false);
    expect(events.published).toEqual([]);
  });

  it('switches a stem between its original and enhanced versions, announced like any mixer change; the objects stay', async () => {
    const { stems, events, useCase, drums } = setUp();
    const original = await useCase.execute({ ownerId: OWNER, stemId: drums._id, changes: { version: 'original' }, origin: 'tab-a' });
    expect(original).toMatchObject({ version: 'original', enhanced: { jobId: 'job-1', createdAt: '2026-11-23T16:00:00.000Z' } });
    const enhanced = await useCase.execute({ ownerId: OWNER, stemId: drums._id, changes: { version: 'enhanced' }, origin: null });
    expect(enhanced).toMatchObject({ version: 'enhanced', enhanced: { jobId: 'job-1' } });
    expect(stems.stored.get(drums._id)).toMatchObject({ objectKey: drums.objectKey, enhanced: ENHANCED, version: 'enhanced' });
    expect(events.published).toEqual([
      { type: 'stem_updated', ownerId: OWNER, origin: 'tab-a', stem: original, changes: { version: 'original' } },
      { type: 'stem_updated', ownerId: OWNER, origin: null, stem: enhanced, changes: { version: 'enhanced' } },
    ]);
  });

  it('answers 409 for switching to an enhanced version a stem does not have yet, storing and announcing nothing', async () => {
    const { stems, events, useCase, vocals } = setUp();
    await expect(useCase.execute({ ownerId: OWNER, stemId: vocals._id, changes: { version: 'enhanced', volume: -3 }, origin: null })).rejects.toMatchObject({
      status: 409,
      message: 'This stem has no enhanced version yet',
    });
    expect(stems.stored.get(vocals._id)).toMatchObject({ volume: 0 });
    expect(stems.stored.get(vocals._id)?.version).toBeUndefined();
    expect(events.published).toEqual([]);
  });
});
