import { Schema } from 'mongoose';
import type { EngineName, StemType, StemVersion } from '@stemdeck/proto';

export const STEM_MODEL = 'Stem';

export interface StemDocument {
  _id: string;
  ownerId: string;
  projectId: string;
  engine: EngineName;
  type: StemType;
  objectKey: string;
  /** Mixer gain in dB (−60…+12). */
  volume: number;
  muted: boolean;
  soloed?: boolean;
  quality: string;
  /** Which version the mixer plays; absent on stems stored before enhanced versions existed ('original'). */
  version?: StemVersion;
  /** The newest enhanced version: the enhance job that made it and its object (the original key stays). */
  enhanced?: { jobId: string; objectKey: string; createdAt: Date } | null;
  createdAt: Date;
  /**
   * Counts the document's changes (every write adds one; absent on stems stored before it was kept): of two
   * answers to changes of the same stem, the one with the higher count is the newer, whichever comes back first.
   */
  rev?: number;
}

export const StemSchema = new Schema<StemDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    projectId: { type: String, required: true },
    engine: { type: String, required: true },
    type: { type: String, required: true },
    objectKey: { type: String, required: true },
    volume: { type: Number, required: true },
    muted: { type: Boolean, required: true },
    soloed: { type: Boolean, default: false },
    quality: { type: String, required: true },
    version: { type: String, default: 'original' },
    enhanced: { type: new Schema({ jobId: String, objectKey: String, createdAt: Date }, { _id: false }), default: null },
    createdAt: { type: Date, required: true },
    rev: { type: Number, default: 0 },
  },
  { versionKey: false, collection: 'stems' },
);
// One stem per (project, engine, type): a retried job overwrites, never duplicates.
StemSchema.index({ projectId: 1, engine: 1, type: 1 }, { unique: true });
StemSchema.index({ ownerId: 1, projectId: 1 });
