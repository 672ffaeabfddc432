import type { JobRecord } from '@stemdeck/proto';
import type { JobDocument } from './job.schema';

/** A stored job as the service sends it: the result only once completed, outputs by name (no keys). */
export const toJobRecord = (doc: JobDocument): JobRecord => ({
  id: doc._id,
  projectId: doc.projectId,
  type: doc.type,
  provider: doc.provider,
  status: doc.status,
  progress: doc.progress,
  ...(doc.error ? { error: doc.error } : {}),
  ...(doc.status === 'completed' && doc.before && doc.after
    ? { result: { outputs: doc.outputs.map((output) => ({ name: output.name })), before: doc.before, after: doc.after } }
    : {}),
  createdAt: doc.createdAt.toISOString(),
});
