import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import { JobListReply, JOBS_SUBJECTS, ObjectLocationReply } from '@stemdeck/proto';
import type { MasteringResult, MasteringResults } from '../exports.ports';
import { valueOrNull } from './reply-value';

const JOBS_TIMEOUT_MS = 10_000;

/** The jobs service's completed masters, over its NATS request/reply contracts (owner-scoped there). */
@Injectable()
export class MasteringResultsAdapter implements MasteringResults {
  constructor(private readonly rpc: NatsRpcClient) {}

  async completedMasters(ownerId: string, projectId: string): Promise<MasteringResult[]> {
    const reply = await this.rpc.request(JOBS_SUBJECTS.listProjectJobs, { ownerId, projectId }, JobListReply, JOBS_TIMEOUT_MS);
    // The jobs service lists newest first.
    return (valueOrNull(reply, JOBS_SUBJECTS.listProjectJobs) ?? [])
      .filter((job) => job.type === 'mastering' && job.status === 'completed' && job.result)
      .map((job) => ({ jobId: job.id, outputs: job.result!.outputs.map((output) => output.name) }));
  }

  async outputObject(ownerId: string, jobId: string, name: string): Promise<string> {
    const reply = await this.rpc.request(JOBS_SUBJECTS.jobOutput, { ownerId, jobId, name }, ObjectLocationReply, JOBS_TIMEOUT_MS);
    const location = valueOrNull(reply, JOBS_SUBJECTS.jobOutput);
    if (!location) throw new Error(`job ${jobId} has no output ${name}`);
    return location.objectKey;
  }
}
