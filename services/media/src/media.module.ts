import { randomUUID } from 'node:crypto';
import { DynamicModule, Module, OnApplicationShutdown, Inject } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CLOCK_AND_ID_BINDINGS, NatsEventBus, ServiceKitModule } from '@stemdeck/platform';
import { MediaConfig } from './config';
import { MediaController } from './media.controller';
import { MEDIA_CONFIG } from './media-config.token';
import { MediaToolsAdapter } from './media-tools/media-tools.adapter';
import { CreateProjectUseCase } from './projects/create-project.usecase';
import { DeleteProjectUseCase } from './projects/delete-project.usecase';
import { ProjectQueries } from './projects/project.queries';
import { RenameProjectUseCase } from './projects/rename-project.usecase';
import { OwnerReadCache } from './read-cache/owner-read-cache';
import { linkReadCache } from './read-cache/read-cache.link';
import { ProjectRepository } from './projects/project.repository';
import { PROJECT_MODEL, ProjectSchema } from './projects/project.schema';
import { PROJECT_PORT_BINDINGS } from './projects/project.providers';
import { EngineRegistry } from './separation/engine-registry';
import { MediaEventsPublisher } from './separation/media-events.publisher';
import { RequestSeparationUseCase } from './separation/request-separation.usecase';
import { RunSeparationUseCase } from './separation/run-separation.usecase';
import { SeparationJobRepository } from './separation/separation-job.repository';
import { SEPARATION_JOB_MODEL, SeparationJobSchema } from './separation/separation-job.schema';
import { SeparationQueue } from './separation/separation-queue';
import { SeparationSlots } from './separation/separation-slots';
import { SeparationWorker } from './separation/separation.worker';
import { SEPARATION_PORT_BINDINGS } from './separation/separation.providers';
import { StemRepository } from './stems/stem.repository';
import { STEM_MODEL, StemSchema } from './stems/stem.schema';
import { AttachEnhancedStemsUseCase } from './stems/attach-enhanced-stems.usecase';
import { StemQueries } from './stems/stem.queries';
import { STEM_PORT_BINDINGS } from './stems/stem.providers';
import { UpdateStemUseCase } from './stems/update-stem.usecase';
import { INGEST_PROVIDERS } from './uploads/ingest.providers';

@Module({})
export class MediaModule implements OnApplicationShutdown {
  constructor(@Inject(NatsEventBus) private readonly bus: NatsEventBus) {}

  static forRoot(config: MediaConfig): DynamicModule {
    return {
      module: MediaModule,
      imports: [
        ServiceKitModule.forRoot({ service: 'media', mongodbUri: config.MONGODB_URI, storage: config }),
        MongooseModule.forFeature([
          { name: PROJECT_MODEL, schema: ProjectSchema },
          { name: STEM_MODEL, schema: StemSchema },
          { name: SEPARATION_JOB_MODEL, schema: SeparationJobSchema },
        ]),
      ],
      controllers: [MediaController],
      providers: [
        { provide: MEDIA_CONFIG, useValue: config },
        {
          provide: SeparationQueue,
          useFactory: async () => {
            const queue = new SeparationQueue(config);
            await queue.connect();
            return queue;
          },
        },
        {
          provide: NatsEventBus,
          useFactory: async () => {
            const bus = new NatsEventBus(config.NATS_URL, 'stemdeck-media-events', { noEcho: true });
            await bus.connect();
            return bus;
          },
        },
        { provide: MediaEventsPublisher, inject: [NatsEventBus], useFactory: (bus: NatsEventBus) => new MediaEventsPublisher(bus) },
        {
          provide: OwnerReadCache,
          inject: [NatsEventBus],
          useFactory: (bus: NatsEventBus) => linkReadCache(new OwnerReadCache({ ttlMs: config.MEDIA_READ_CACHE_TTL_MS, maxBuckets: 5000, maxReadsPerBucket: 200, instance: randomUUID() }), bus),
        },
        MediaToolsAdapter,
        ProjectRepository,
        StemRepository,
        SeparationJobRepository,
        EngineRegistry,
        CreateProjectUseCase,
        DeleteProjectUseCase,
        ProjectQueries,
        RenameProjectUseCase,
        StemQueries,
        UpdateStemUseCase,
        AttachEnhancedStemsUseCase,
        RequestSeparationUseCase,
        RunSeparationUseCase,
        SeparationSlots,
        SeparationWorker,
        ...INGEST_PROVIDERS,
        ...SEPARATION_PORT_BINDINGS,
        ...PROJECT_PORT_BINDINGS,
        ...STEM_PORT_BINDINGS,
        ...CLOCK_AND_ID_BINDINGS,
      ],
    };
  }

  onApplicationShutdown(): Promise<void> {
    return this.bus.close();
  }
}
