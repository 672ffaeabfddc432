import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { EngineName, StemRecord, StemType, UpdateStemBody } from '@stemdeck/proto';
import { STEM_TYPES } from '@stemdeck/proto';
import { findOwnedById } from '@stemdeck/platform';
import type { Model } from 'mongoose';
import { OwnerReadCache, type ReadRewrite } from '../read-cache/owner-read-cache';
import type { EnhancedStemDocument } from './stem.ports';
import { STEM_MODEL, StemDocument } from './stem.schema';

/** A stored stem as media sends it; the gateway adds the url it serves the audio at. */
export const toStem = (doc: StemDocument): StemRecord => ({
  id: doc._id,
  projectId: doc.projectId,
  type: doc.type,
  engine: doc.engine,
  volume: doc.volume,
  muted: doc.muted,
  soloed: doc.soloed ?? false,
  quality: doc.quality,
  // 'enhanced' only while there is an enhanced version to play; anything else plays the original.
  version: doc.version === 'enhanced' && doc.enhanced ? 'enhanced' : 'original',
  enhanced: doc.enhanced ? { jobId: doc.enhanced.jobId, createdAt: doc.enhanced.createdAt.toISOString() } : null,
});

/** A stem's id is derived from what it is, so storing the same stem twice lands on the same document. */
export const stemIdOf = (projectId: string, engine: EngineName, type: StemType): string => `${projectId}-${engine}-${type}`;

const typeOrder = (type: StemType) => STEM_TYPES.indexOf(type);

/** The keys StemQueries keeps its reads under in the owner's `stems` scope (stem documents, as stored). */
export const STEM_READ_KEYS = {
  /** A project's stems of one engine, in stem-type order. */
  list: (projectId: string, engine: EngineName) => `list:${projectId}:${engine}`,
  /** One stem's document. */
  stem: (stemId: string) => `stem:${stemId}`,
};

const newer = (stored: StemDocument, kept: StemDocument | null) => !kept || (stored.rev ?? 0) > (kept.rev ?? 0);

/**
 * What a stored stem makes of the kept stem reads: its own read becomes it, a list holding it has it replaced,
 * each only where it is newer than what is kept (answers to two changes of one stem can come back in either
 * order: the change count decides); a stem that is gone drops them all.
 */
export const rewriteStemReads: ReadRewrite<StemDocument | null> = (stored, key, value) => {
  if (!stored) return undefined;
  if (key === STEM_READ_KEYS.stem(stored._id)) return newer(stored, value as StemDocument | null) ? stored : value;
  if (key !== STEM_READ_KEYS.list(stored.projectId, stored.engine) || !Array.isArray(value)) return value;
  const docs = value as StemDocument[];
  const kept = docs.find((doc) => doc._id === stored._id);
  return kept && newer(stored, kept) ? docs.map((doc) => (doc === kept ? stored : doc)) : docs;
};

/** The owner's stem documents; every change drops the owner's cached stem reads once the database has it. */
@Injectable()
export class StemRepository {
  private readonly logger = new Logger(StemRepository.name);

  constructor(
    @InjectModel(STEM_MODEL) private readonly stems: Model<StemDocument>,
    private readonly cache: OwnerReadCache,
  ) {}

  /** Creates or replaces the stored object of a stem; keeps the user's mixer settings on a re-run. */
  async upsert(stem: Omit<StemDocument, '_id' | 'volume' | 'muted' | 'soloed' | 'createdAt'>): Promise<void> {
    await this.cache.changing(stem.ownerId, 'stems', () =>
      this.stems
        .updateOne(
          { _id: stemIdOf(stem.projectId, stem.engine, stem.type), ownerId: stem.ownerId },
          {
            $set: { objectKey: stem.objectKey, quality: stem.quality },
            $inc: { rev: 1 },
            $setOnInsert: {
              projectId: stem.projectId,
              engine: stem.engine,
              type: stem.type,
              volume: 0,
              muted: false,
              soloed: false,
              createdAt: new Date(),
            },
          },
          { upsert: true },
        )
        .exec(),
    );
  }

  async listOwned(ownerId: string, projectId: string, engine: EngineName): Promise<StemDocument[]> {
    const docs = await this.stems.find({ ownerId, projectId, engine }).lean<StemDocument[]>().exec();
    return docs.sort((a, b) => typeOrder(a.type) - typeOrder(b.type));
  }

  /** Every stem document of a project, all engines (the project is being deleted). */
  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    await this.cache.changing(ownerId, 'stems', () => this.stems.deleteMany({ ownerId, projectId }).exec());
  }

  async deleteForEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void> {
    await this.cache.changing(ownerId, 'stems', () => this.stems.deleteMany({ ownerId, projectId, engine }).exec());
  }

  findOwned(ownerId: string, stemId: string): Promise<StemDocument | null> {
    return findOwnedById(this.stems, stemId, ownerId);
  }

  /**
   * The mixer's change: the owner's kept stem reads are rewritten with the stored stem instead of dropped.
   * The stem is checked to be the owner's by their read of it (kept, or one read by id), and written by `_id`
   * alone, which FerretDB looks up without decoding every stem (see findOwnedById): a stem's id is made from its
   * project's, and a project's id is never another owner's. Were that ever broken (an import reusing ids), the
   * stored stem's owner is checked again and a stranger's stem is answered as missing, never shown or announced.
   */
  async updateOwned(ownerId: string, stemId: string, changes: UpdateStemBody): Promise<StemDocument | null> {
    if (!(await this.cache.read(ownerId, 'stems', STEM_READ_KEYS.stem(stemId), () => this.findOwned(ownerId, stemId)))) return null;
    return this.cache.changedTo(
      ownerId,
      'stems',
      async () => {
        const stored = await this.stems.findOneAndUpdate({ _id: stemId }, { $set: changes, $inc: { rev: 1 } }, { new: true }).lean<StemDocument>().exec();
        if (!stored || stored.ownerId === ownerId) return stored;
        this.logger.error(`stem ${stemId} changed for an owner it does not belong to: its id was reused across owners`);
        return null;
      },
      rewriteStemReads,
    );
  }

  setEnhanced(ownerId: string, projectId: string, stemId: string, enhanced: EnhancedStemDocument): Promise<StemDocument | null> {
    return this.cache.changing(ownerId, 'stems', () =>
      this.stems
        .findOneAndUpdate({ _id: stemId, ownerId, projectId }, { $set: { enhanced, version: 'enhanced' }, $inc: { rev: 1 } }, { new: true })
        .lean<StemDocument>()
        .exec(),
    );
  }
}
