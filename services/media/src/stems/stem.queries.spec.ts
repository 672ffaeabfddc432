import { OwnerReadCache } from '../read-cache/owner-read-cache';
import { InMemoryProjectStore } from '../testing/in-memory-project-store';
import type { StemStore } from './stem.ports';
import { StemQueries } from './stem.queries';
import { rewriteStemReads, STEM_READ_KEYS } from './stem.repository';
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
  const enhanced = { jobId: 'job-1', objectKey: 'users/owner-1/projects/separated/enhanced/job-1/bass.flac', createdAt: new Date(0) };
  const stored = [
    stem('separated', 'vocals', 'users/owner-1/projects/separated/stems/fast/vocals.flac'),
    stem('separated', 'drums', 'old/drums.wav'),
    { ...stem('separated', 'bass', 'users/owner-1/projects/separated/stems/fast/bass.flac'), version: 'enhanced' as const, enhanced },
    { ...stem('separated', 'other', 'users/owner-1/projects/separated/stems/fast/other.flac'), enhanced },
  ];
  const stems: Pick<StemStore, 'listOwned' | 'findOwned'> = {
    listOwned: async (ownerId, projectId, engine) => stored.filter((s) => s.ownerId === ownerId && s.projectId === projectId && s.engine === engine),
    findOwned: async (ownerId, stemId) => stored.find((s) => s.ownerId === ownerId && s._id === stemId) ?? null,
  };
  return new StemQueries(projects, stems, new OwnerReadCache({ ttlMs: 5000, maxBuckets: 100, maxReadsPerBucket: 50, instance: 'spec' }));
}

describe('StemQueries', () => {
  it("lists the active engine's stems, none before the first separation, 404 for a project not the owner's", async () => {
    const queries = setUp();
    expect((await queries.ofProject(OWNER, 'separated')).map((s) => s.type)).toEqual(['vocals', 'drums', 'bass', 'other']);
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

  it('serves the version a stem plays, or the one asked for; the enhanced one is named so; 404 for an enhanced version not made yet', async () => {
    const queries = setUp();
    const original = { objectKey: 'users/owner-1/projects/separated/stems/fast/bass.flac', contentType: 'audio/flac', fileName: 'bass.flac' };
    const enhanced = { objectKey: 'users/owner-1/projects/separated/enhanced/job-1/bass.flac', contentType: 'audio/flac', fileName: 'bass (enhanced).flac' };
    await expect(queries.audioOf(OWNER, 'separated-fast-bass')).resolves.toEqual(enhanced);
    await expect(queries.audioOf(OWNER, 'separated-fast-bass', 'enhanced')).resolves.toEqual(enhanced);
    await expect(queries.audioOf(OWNER, 'separated-fast-bass', 'original')).resolves.toEqual(original);
    // Has an enhanced version but plays the original.
    await expect(queries.audioOf(OWNER, 'separated-fast-other')).resolves.toMatchObject({ fileName: 'other.flac' });
    await expect(queries.audioOf(OWNER, 'separated-fast-vocals', 'original')).resolves.toMatchObject({ fileName: 'vocals.flac' });
    await expect(queries.audioOf(OWNER, 'separated-fast-vocals', 'enhanced')).rejects.toMatchObject({ status: 404, message: 'This stem has no enhanced version' });
    await expect(queries.audioOf('rival', 'separated-fast-bass', 'enhanced')).rejects.toMatchObject({ status: 404, message: 'Stem not found' });
  });

  it("lists each stem's version and its enhanced version's job", async () => {
    const queries = setUp();
    const stems = await queries.ofProject(OWNER, 'separated');
    expect(stems.map(({ type, version, enhanced }) => ({ type, version, enhanced }))).toEqual([
      { type: 'vocals', version: 'original', enhanced: null },
      { type: 'drums', version: 'original', enhanced: null },
      { type: 'bass', version: 'enhanced', enhanced: { jobId: 'job-1', createdAt: '1970-01-01T00:00:00.000Z' } },
      { type: 'other', version: 'original', enhanced: { jobId: 'job-1', createdAt: '1970-01-01T00:00:00.000Z' } },
    ]);
  });
});

describe('rewriteStemReads', () => {
  const drums = { ...stem('separated', 'drums', 'stems/fast/drums.flac'), rev: 4 };
  const stored = { ...drums, volume: -6, rev: 5 };
  const list = [stem('separated', 'vocals', 'v.flac'), drums];

  it("puts the stored stem in its own read and in its project's list of its engine, and leaves other reads", () => {
    expect(rewriteStemReads(stored, STEM_READ_KEYS.stem(stored._id), drums)).toBe(stored);
    expect(rewriteStemReads(stored, STEM_READ_KEYS.list('separated', 'fast'), list)).toEqual([list[0], stored]);
    const otherEngine = [{ ...stem('separated', 'drums', 'q.flac'), _id: 'separated-quality-drums', engine: 'quality' as const }];
    expect(rewriteStemReads(stored, STEM_READ_KEYS.list('separated', 'quality'), otherEngine)).toBe(otherEngine);
    const other = stem('separated', 'vocals', 'v.flac');
    expect(rewriteStemReads(stored, STEM_READ_KEYS.stem(other._id), other)).toBe(other);
  });

  it('keeps what is newer than the answer (an earlier change answered late), counting a stem stored without a count as 0', () => {
    const newer = { ...drums, volume: -12, rev: 6 };
    expect(rewriteStemReads(stored, STEM_READ_KEYS.stem(stored._id), newer)).toBe(newer);
    const kept = [list[0], newer];
    expect(rewriteStemReads(stored, STEM_READ_KEYS.list('separated', 'fast'), kept)).toBe(kept);
    const uncounted = { ...drums, rev: undefined };
    expect(rewriteStemReads({ ...stored, rev: 1 }, STEM_READ_KEYS.stem(stored._id), uncounted)).toEqual({ ...stored, rev: 1 });
  });

  it('drops every read when the stem is gone', () => {
    expect(rewriteStemReads(null, STEM_READ_KEYS.list('separated', 'fast'), list)).toBeUndefined();
  });
});
