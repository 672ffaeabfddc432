import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import { CreateEnhanceJobBody, CreateMasteringJobBody, CreateVideoJobBody, JobListReply, JobReply, JOBS_SUBJECTS, ObjectLocationReply, type Reply } from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { callService } from '../nats/service-call';
import { withOutputUrls } from './job-url';

/** Creating a job asks media for the project and its stems first. */
const CREATE_TIMEOUT_MS = 20_000;
const QUERY_TIMEOUT_MS = 10_000;

/**
 * The gateway's way to the jobs service: one method per subject, replies validated against proto/, a
 * service's expected failure (404, 409, ...) rethrown as a DomainError with its status.
 */
@Injectable()
export class JobsClient {
  constructor(private readonly rpc: NatsRpcClient) {}

  async createMastering(ownerId: string, body: CreateMasteringJobBody) {
    return withOutputUrls(await this.call(JOBS_SUBJECTS.createMastering, { ownerId, ...body }, JobReply, CREATE_TIMEOUT_MS));
  }

  async createEnhance(ownerId: string, body: CreateEnhanceJobBody) {
    return withOutputUrls(await this.call(JOBS_SUBJECTS.createEnhance, { ownerId, ...body }, JobReply, CREATE_TIMEOUT_MS));
  }

  async createVideo(ownerId: string, body: CreateVideoJobBody) {
    return withOutputUrls(await this.call(JOBS_SUBJECTS.createVideo, { ownerId, ...body }, JobReply, CREATE_TIMEOUT_MS));
  }

  async getJob(ownerId: string, jobId: string) {
    return withOutputUrls(await this.call(JOBS_SUBJECTS.getJob, { ownerId, jobId }, JobReply));
  }

  async listProjectJobs(ownerId: string, projectId: string) {
    return (await this.call(JOBS_SUBJECTS.listProjectJobs, { ownerId, projectId }, JobListReply)).map(withOutputUrls);
  }

  async cancelJob(ownerId: string, jobId: string) {
    return withOutputUrls(await this.call(JOBS_SUBJECTS.cancelJob, { ownerId, jobId }, JobReply, CREATE_TIMEOUT_MS));
  }

  jobOutput(ownerId: string, jobId: string, name: string) {
    return this.call(JOBS_SUBJECTS.jobOutput, { ownerId, jobId, name }, ObjectLocationReply);
  }

  private call<T>(subject: string, payload: unknown, schema: ZodType<Reply<T>>, timeoutMs = QUERY_TIMEOUT_MS): Promise<T> {
    return callService(this.rpc, subject, payload, schema, timeoutMs);
  }
}
