import { Schema } from 'mongoose';
import type { EnhanceParameters, JobProvider, JobStatus, JobType, LoudnessFigures, MasteringParameters, StemType, VideoFacts, VideoParameters } from '@stemdeck/proto';

export const JOB_MODEL = 'Job';

/** An output of a finished job: its name in the API and where its bytes are; an enhanced stem names its stem and its own figures. */
export interface JobOutputDocument {
  name: string;
  objectKey: string;
  contentType: string;
  stemType?: StemType;
  /** A video job's output: the video's facts. */
  video?: VideoFacts;
  before?: LoudnessFigures;
  after?: LoudnessFigures;
}

export interface JobDocument {
  _id: string;
  ownerId: string;
  projectId: string;
  type: JobType;
  provider: JobProvider;
  status: JobStatus;
  /** 0–100. */
  progress: number;
  error: string | null;
  /** As `type` says: a master's, an enhancement's or a video's. */
  parameters: MasteringParameters | EnhanceParameters | VideoParameters;
  outputs: JobOutputDocument[];
  before: LoudnessFigures | null;
  after: LoudnessFigures | null;
  /** Deliveries that started working on it. */
  attempts: number;
  /** Its outputs are being handed over (an enhance job's to media): a cancel now would strand them, so it is refused. */
  finishing?: boolean;
  /**
   * Stored, but waiting for one of its owner's job slots (each user runs JOBS_PER_USER jobs at once, the rest
   * wait oldest first): not on the work queue yet. False once handed to it (JobSlots).
   */
  waiting?: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const LoudnessSchema = new Schema<LoudnessFigures>(
  { integratedLufs: { type: Number, required: true }, lra: { type: Number, required: true }, truePeakDbtp: { type: Number, required: true } },
  { _id: false },
);

const OutputSchema = new Schema<JobOutputDocument>(
  { name: String, objectKey: String, contentType: String, stemType: String, video: { type: Schema.Types.Mixed, default: undefined }, before: LoudnessSchema, after: LoudnessSchema },
  { _id: false },
);

export const JobSchema = new Schema<JobDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    projectId: { type: String, required: true },
    type: { type: String, required: true },
    provider: { type: String, required: true },
    status: { type: String, required: true },
    progress: { type: Number, required: true },
    error: { type: String, default: null },
    parameters: { type: Schema.Types.Mixed, required: true },
    outputs: { type: [OutputSchema], default: [] },
    before: { type: LoudnessSchema, default: null },
    after: { type: LoudnessSchema, default: null },
    attempts: { type: Number, required: true },
    finishing: { type: Boolean, default: false },
    waiting: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'jobs' },
);
JobSchema.index({ ownerId: 1, projectId: 1, createdAt: -1 });
JobSchema.index({ waiting: 1, ownerId: 1, createdAt: 1 });
