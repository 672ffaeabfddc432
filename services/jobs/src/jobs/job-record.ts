import { enhanceJobPrefix, masterJobPrefix, type JobRecord } from '@stemdeck/proto';
import type { JobDocument, JobOutputDocument } from './job.schema';

/** An output as the service sends it: by name (no key), with its stem and figures when it has them. */
const toOutputRecord = ({ name, stemType, before, after }: JobOutputDocument) => ({
  name,
  ...(stemType ? { stemType } : {}),
  ...(before ? { before } : {}),
  ...(after ? { after } : {}),
});

/** A stored job as the service sends it: the result only once completed (a master's figures when it has them). */
export const toJobRecord = (doc: JobDocument): JobRecord => ({
  id: doc._id,
  projectId: doc.projectId,
  type: doc.type,
  provider: doc.provider,
  status: doc.status,
  progress: doc.progress,
  ...(doc.error ? { error: doc.error } : {}),
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

/** The folder of a job's objects (removed as one prefix when it fails or is cancelled). */
export const jobObjectsPrefix = (job: Pick<JobDocument, '_id' | 'ownerId' | 'projectId' | 'type'>): string =>
  (job.type === 'enhance' ? enhanceJobPrefix : masterJobPrefix)(job.ownerId, job.projectId, job._id);
