import { InMemoryProjectStore } from '../testing/in-memory-project-store';
import type { StemStore } from './stem.ports';
import { StemQueries } from './stem.queries';
import type { StemDocument } from './stem.schema';

const OWNER = 'owner-1';

const stem = (projectId: string, type: StemDocument['type'], objectKey: string): StemDocument => ({
  _id: `${projectId}-fast-${type}`,
  ownerId: OWNER,
  projectId,
  engine: 'fast',
  type,
  objectKey,
  volume: 0,
  muted: false,
  quality: 'good',
  createdAt: new Date(0),
});

function setUp() {
  const projects = new InMemoryProjectStore();
  projects.add({ _id: 'separated', ownerId: OWNER, activeEngine: 'fast' });
  projects.add({ _id: 'waiting', ownerId: OWNER, activeEngine: null });
  const stored = [stem('separated', 'vocals', 'users/owner-1/projects/separated/stems/fast/vocals.flac'), stem('separated', 'drums', 'old/drums.wav')];
  const stems: Pick<StemStore, 'listOwned' | 'findOwned'> = {
    listOwned: async (ownerId, projectId, engine) => stored.filter((s) => s.ownerId === ownerId && s.projectId === projectId && s.engine === engine),
    findOwned: async (ownerId, stemId) => stored.find((s) => s.ownerId === ownerId && s._id === stemId) ?? null,
  };
  return new StemQueries(projects, stems);
}

describe('StemQueries', () => {
  it("lists the active engine's stems, none before the first separation, 404 for a project not the owner's", async () => {
    const queries = setUp();
    expect((await queries.ofProject(OWNER, 'separated')).map((s) => s.type)).toEqual(['vocals', 'drums']);
    await expect(queries.ofProject(OWNER, 'waiting')).resolves.toEqual([]);
    await expect(queries.ofProject('rival', 'separated')).rejects.toMatchObject({ status: 404, message: 'Project not found' });
  });

  it("names a stem's stored audio by its type and key's extension, with the key's content type; 404 for another owner", async () => {
    const queries = setUp();
    await expect(queries.audioOf(OWNER, 'separated-fast-vocals')).resolves.toEqual({
      objectKey: 'users/owner-1/projects/separated/stems/fast/vocals.flac',
      contentType: 'audio/flac',
      fileName: 'vocals.flac',
    });
    await expect(queries.audioOf(OWNER, 'separated-fast-drums')).resolves.toMatchObject({ contentType: 'audio/wav', fileName: 'drums.wav' });
    await expect(queries.audioOf('rival', 'separated-fast-vocals')).rejects.toMatchObject({ status: 404, message: 'Stem not found' });
  });
});
