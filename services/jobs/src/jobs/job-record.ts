import { enhanceJobPrefix, masterJobPrefix, videoJobPrefix, type JobRecord } from '@stemdeck/proto';
import type { JobDocument, JobOutputDocument } from './job.schema';

/** An output as the service sends it: by name (no key), with its stem and figures when it has them. */
const toOutputRecord = ({ name, stemType, video, before, after }: JobOutputDocument) => ({
  name,
  ...(stemType ? { stemType } : {}),
  ...(video ? { video } : {}),
  ...(before ? { before } : {}),
  ...(after ? { after } : {}),
});

/**
 * A stored job as the service sends it: the result only once completed (a master's figures, a video's facts,
 * when it has them); `queuePosition` for one waiting for its owner's job slot (its place in their line).
 */
export const toJobRecord = (doc: JobDocument, queuePosition?: number): JobRecord => ({
  id: doc._id,
  projectId: doc.projectId,
  type: doc.type,
  provider: doc.provider,
  status: doc.status,
  progress: doc.progress,
  ...(doc.error ? { error: doc.error } : {}),
  ...(doc.waiting && doc.status === 'processing' && queuePosition ? { queuePosition } : {}),
  ...(doc.status === 'completed'
    ? {
        result: {
          outputs: doc.outputs.map(toOutputRecord),
          ...(doc.before ? { before: doc.before } : {}),
          ...(doc.after ? { after: doc.after } : {}),
        },
      }
    : {}),
  createdAt: doc.createdAt.toISOString(),
});

const JOB_PREFIXES = { mastering: masterJobPrefix, enhance: enhanceJobPrefix, video: videoJobPrefix } as const;

/** The folder of a job's objects (removed as one prefix when it fails or is cancelled). */
export const jobObjectsPrefix = (job: Pick<JobDocument, '_id' | 'ownerId' | 'projectId' | 'type'>): string =>
  JOB_PREFIXES[job.type](job.ownerId, job.projectId, job._id);
