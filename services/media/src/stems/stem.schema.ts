import { Schema } from 'mongoose';
import type { EngineName, StemType } from '@stemdeck/proto';

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
  createdAt: Date;
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
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'stems' },
);
// One stem per (project, engine, type): a retried job overwrites, never duplicates.
StemSchema.index({ projectId: 1, engine: 1, type: 1 }, { unique: true });
StemSchema.index({ ownerId: 1, projectId: 1 });
