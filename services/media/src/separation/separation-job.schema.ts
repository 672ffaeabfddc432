import { Schema } from 'mongoose';
import type { EngineName, SeparationJobStatus } from '@stemdeck/proto';

export const SEPARATION_JOB_MODEL = 'SeparationJob';

export type { SeparationJobStatus };

export interface SeparationJobDocument {
  _id: string;
  ownerId: string;
  projectId: string;
  engine: EngineName;
  status: SeparationJobStatus;
  progress: number;
  error: string | null;
  /** Seconds of every stem already stored while the job runs (progressive stems); null before, and after a failure. */
  partialSeconds: number | null;
  attempts: number;
  /** Queued behind the owner's other separations (all their slots busy); false once handed to a worker. */
  waiting?: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const SeparationJobSchema = new Schema<SeparationJobDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    projectId: { type: String, required: true },
    engine: { type: String, required: true },
    status: { type: String, required: true },
    progress: { type: Number, required: true },
    error: { type: String, default: null },
    partialSeconds: { type: Number, default: null },
    attempts: { type: Number, required: true },
    waiting: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'separation_jobs' },
);
SeparationJobSchema.index({ ownerId: 1, projectId: 1, engine: 1 });
SeparationJobSchema.index({ waiting: 1, ownerId: 1, createdAt: 1 });
