import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy, ClientsModule, Transport } from '@nestjs/microservices';
import { MongooseModule } from '@nestjs/mongoose';
import { CLOCK_AND_ID_BINDINGS, NATS_RECONNECT_FOREVER, NatsEventBus, NatsRpcClient, ServiceKitModule } from '@stemdeck/platform';
import { JobsConfig } from './config';
import { JobsController } from './jobs.controller';
import { CancelJobUseCase } from './jobs/cancel-job.usecase';
import { LocalEnhanceProvider } from './enhance/local-enhance.provider';
import { CreateJobUseCase } from './jobs/create-job.usecase';
import { EnhanceJobRunner } from './jobs/enhance-job.runner';
import { DeleteProjectJobsUseCase } from './jobs/delete-project-jobs.usecase';
import { JobEventsPublisher } from './jobs/job-events.publisher';
import { JobQueries } from './jobs/job.queries';
import { JobSlots } from './jobs/job-slots';
import { JobRepository } from './jobs/job.repository';
import { JOB_MODEL, JobSchema } from './jobs/job.schema';
import { JobsQueue } from './jobs/jobs-queue';
import { JOBS_CONFIG } from './jobs/jobs-settings';
import { JobsWorker } from './jobs/jobs.worker';
import { JOB_PORT_BINDINGS } from './jobs/jobs.providers';
import { ProjectDeletedListener } from './jobs/project-deleted.listener';
import { JOB_RUNNERS, type JobRunners } from './jobs/job-runner';
import { MasteringJobRunner } from './jobs/mastering-job.runner';
import { RunJobUseCase } from './jobs/run-job.usecase';
import { LocalMasteringProvider } from './mastering/local-mastering.provider';
import { MediaProjectsAdapter } from './media/media-projects.adapter';
import { JobScratch } from './scratch/job-scratch';
import { configuredEnhanceProvider, configuredMasteringProvider, configuredVideoProvider } from './providers/configured-providers';
import { ENHANCE_PROVIDER, MASTERING_PROVIDER, VIDEO_PROVIDER } from './jobs/jobs.ports';
import { VideoJobRunner } from './jobs/video-job.runner';
import { localVideoRenderer } from './video/local-video.provider';

const MEDIA_CLIENT = 'JOBS_MEDIA_CLIENT';

@Module({})
export class JobsModule implements OnApplicationShutdown {
  constructor(
    @Inject(NatsEventBus) private readonly bus: NatsEventBus,
    @Inject(MEDIA_CLIENT) private readonly client: ClientProxy,
  ) {}

  static forRoot(config: JobsConfig): DynamicModule {
    return {
      module: JobsModule,
      imports: [
        ServiceKitModule.forRoot({ service: 'jobs', mongodbUri: config.MONGODB_URI, storage: config }),
        MongooseModule.forFeature([{ name: JOB_MODEL, schema: JobSchema }]),
        // Requests to the media service (its projects and stems).
        ClientsModule.register([
          { name: MEDIA_CLIENT, transport: Transport.NATS, options: { servers: [config.NATS_URL], name: 'stemdeck-jobs-client', ...NATS_RECONNECT_FOREVER } },
        ]),
      ],
      controllers: [JobsController],
      providers: [
        { provide: JOBS_CONFIG, useValue: config },
        { provide: NatsRpcClient, inject: [MEDIA_CLIENT], useFactory: (client: ClientProxy) => new NatsRpcClient(client) },
        {
          provide: JobsQueue,
          useFactory: async () => {
            const queue = new JobsQueue(config);
            await queue.connect();
            return queue;
          },
        },
        {
          provide: NatsEventBus,
          useFactory: async () => {
            const bus = new NatsEventBus(config.NATS_URL, 'stemdeck-jobs-events');
            await bus.connect();
            return bus;
          },
        },
        { provide: JobEventsPublisher, inject: [NatsEventBus], useFactory: (bus: NatsEventBus) => new JobEventsPublisher(bus) },
        { provide: JobScratch, useFactory: () => new JobScratch(config.JOBS_WORK_DIR) },
        { provide: LocalMasteringProvider, inject: [JobScratch], useFactory: (scratch: JobScratch) => new LocalMasteringProvider(scratch) },
        { provide: LocalEnhanceProvider, inject: [JobScratch], useFactory: (scratch: JobScratch) => new LocalEnhanceProvider(scratch) },
        // A cloud provider only when its credentials are configured (chooseProviders); our own engines otherwise.
        {
          provide: MASTERING_PROVIDER,
          inject: [JobScratch, LocalMasteringProvider],
          useFactory: (scratch: JobScratch, local: LocalMasteringProvider) => configuredMasteringProvider(config, scratch, local),
        },
        {
          provide: ENHANCE_PROVIDER,
          inject: [JobScratch, LocalEnhanceProvider],
          useFactory: (scratch: JobScratch, local: LocalEnhanceProvider) => configuredEnhanceProvider(config, scratch, local),
        },
        // Music videos: Runway when its key is configured, the local renderer otherwise.
        { provide: VIDEO_PROVIDER, useFactory: () => configuredVideoProvider(config, localVideoRenderer()) },
        JobRepository,
        MediaProjectsAdapter,
        JobSlots,
        CreateJobUseCase,
        MasteringJobRunner,
        EnhanceJobRunner,
        VideoJobRunner,
        {
          provide: JOB_RUNNERS,
          inject: [MasteringJobRunner, EnhanceJobRunner, VideoJobRunner],
          useFactory: (mastering: MasteringJobRunner, enhance: EnhanceJobRunner, video: VideoJobRunner): JobRunners => ({ mastering, enhance, video }),
        },
        RunJobUseCase,
        CancelJobUseCase,
        DeleteProjectJobsUseCase,
        JobQueries,
        JobsWorker,
        ProjectDeletedListener,
        ...JOB_PORT_BINDINGS,
        ...CLOCK_AND_ID_BINDINGS,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
    await this.client.close();
  }
}
