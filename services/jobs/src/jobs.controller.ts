import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { answer, parseOrFail } from '@stemdeck/platform';
import { CreateEnhanceJobRequest, CreateMasteringJobRequest, CreateVideoJobRequest, JobOutputRequest, JobRequest, JOBS_SUBJECTS, ListProjectJobsRequest } from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { CancelJobUseCase } from './jobs/cancel-job.usecase';
import { CreateJobUseCase } from './jobs/create-job.usecase';
import { JobQueries } from './jobs/job.queries';

/** The requests as parsed (intensity, unnamed toggles and the video prompt defaulted): parseOrFail's schema type has equal input and output. */
const CREATE_MASTERING_REQUEST = CreateMasteringJobRequest as unknown as ZodType<CreateMasteringJobRequest>;
const CREATE_ENHANCE_REQUEST = CreateEnhanceJobRequest as unknown as ZodType<CreateEnhanceJobRequest>;
const CREATE_VIDEO_REQUEST = CreateVideoJobRequest as unknown as ZodType<CreateVideoJobRequest>;

/** The jobs service's NATS edge: validate with the proto schema, call one use-case, wrap the reply. */
@Controller()
export class JobsController {
  constructor(
    private readonly createJob: CreateJobUseCase,
    private readonly cancelJob: CancelJobUseCase,
    private readonly queries: JobQueries,
  ) {}

  @MessagePattern(JOBS_SUBJECTS.createMastering)
  createMastering(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, projectId, parameters } = parseOrFail(CREATE_MASTERING_REQUEST, payload);
      return this.createJob.execute(ownerId, { projectId, type: 'mastering', parameters });
    });
  }

  @MessagePattern(JOBS_SUBJECTS.createEnhance)
  createEnhance(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, projectId, parameters } = parseOrFail(CREATE_ENHANCE_REQUEST, payload);
      return this.createJob.execute(ownerId, { projectId, type: 'enhance', parameters });
    });
  }

  @MessagePattern(JOBS_SUBJECTS.createVideo)
  createVideo(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, projectId, parameters } = parseOrFail(CREATE_VIDEO_REQUEST, payload);
      return this.createJob.execute(ownerId, { projectId, type: 'video', parameters });
    });
  }

  @MessagePattern(JOBS_SUBJECTS.getJob)
  get(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, jobId } = parseOrFail(JobRequest, payload);
      return this.queries.get(ownerId, jobId);
    });
  }

  @MessagePattern(JOBS_SUBJECTS.listProjectJobs)
  list(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, projectId } = parseOrFail(ListProjectJobsRequest, payload);
      return this.queries.listForProject(ownerId, projectId);
    });
  }

  @MessagePattern(JOBS_SUBJECTS.cancelJob)
  cancel(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, jobId } = parseOrFail(JobRequest, payload);
      return this.cancelJob.execute(ownerId, jobId);
    });
  }

  @MessagePattern(JOBS_SUBJECTS.jobOutput)
  output(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, jobId, name } = parseOrFail(JobOutputRequest, payload);
      return this.queries.output(ownerId, jobId, name);
    });
  }
}
