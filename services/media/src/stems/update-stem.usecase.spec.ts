import { RecordingEvents } from '../testing/recording-publishers';
import type { StemStore } from './stem.ports';
import type { StemDocument } from './stem.schema';
import { UpdateStemUseCase } from './update-stem.usecase';

const OWNER = 'owner-1';
const STEM = 'project-1-fast-vocals';

function setUp() {
  const stored = new Map<string, StemDocument>([
    [STEM, { _id: STEM, ownerId: OWNER, projectId: 'project-1', engine: 'fast', type: 'vocals', objectKey: 'k.flac', quality: 'fast', volume: 0, muted: false, soloed: false, createdAt: new Date(0) }],
  ]);
  const events = new RecordingEvents();
  const stems: Pick<StemStore, 'updateOwned'> = {
    updateOwned: async (ownerId, stemId, changes) => {
      const doc = stored.get(stemId);
      if (!doc || doc.ownerId !== ownerId) return null;
      Object.assign(doc, changes);
      return { ...doc };
    },
  };
  const useCase = new UpdateStemUseCase(stems, events);
  return { stored, events, useCase };
}

describe('UpdateStemUseCase', () => {
  it('stores the change, then announces the stored stem and the changed fields with the change\'s origin', async () => {
    const { stored, events, useCase } = setUp();
    const stem = await useCase.execute({ ownerId: OWNER, stemId: STEM, changes: { volume: -6.5, muted: true }, origin: 'tab-a' });
    expect(stem).toEqual({ id: STEM, projectId: 'project-1', type: 'vocals', engine: 'fast', volume: -6.5, muted: true, soloed: false, quality: 'fast' });
    expect(stored.get(STEM)).toMatchObject({ volume: -6.5, muted: true });
    expect(events.published).toEqual([{ type: 'stem_updated', ownerId: OWNER, origin: 'tab-a', stem, changes: { volume: -6.5, muted: true } }]);
  });

  it("answers 404 for a stem that is missing or someone else's, announcing nothing", async () => {
    const { stored, events, useCase } = setUp();
    await expect(useCase.execute({ ownerId: 'rival', stemId: STEM, changes: { muted: true }, origin: null })).rejects.toMatchObject({ status: 404 });
    await expect(useCase.execute({ ownerId: OWNER, stemId: 'nope', changes: { muted: true }, origin: null })).rejects.toMatchObject({ status: 404 });
    expect(stored.get(STEM)?.muted).toBe(false);
    expect(events.published).toEqual([]);
  });
});
