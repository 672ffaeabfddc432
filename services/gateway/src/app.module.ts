import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import { CLOCK_AND_ID_BINDINGS, ServiceKitModule } from '@stemdeck/platform';
import type { Connection } from 'mongoose';
import { AuthController } from './auth/auth.controller';
import { OidcAdapter } from './auth/oidc.adapter';
import { BeginLoginUseCase } from './auth/usecases/begin-login.usecase';
import { CompleteLoginUseCase } from './auth/usecases/complete-login.usecase';
import { GATEWAY_CONFIG, GatewayConfig } from './config';
import { HttpExceptionFilter } from './errors/http-exception.filter';
import { CheckReadinessUseCase } from './health/check-readiness.usecase';
import { HealthController } from './health/health.controller';
import { LiveHub } from './live/live.hub';
import { OwnSocketsRelay } from './live/own-sockets.relay';
import { MediaEventsRelay } from './live/media-events.relay';
import { StemUpdateCommand } from './live/stem-update.command';
import { ExportClient } from './export/export.client';
import { ExportAndWaitUseCase } from './export/export-and-wait.usecase';
import { ExportController } from './export/export.controller';
import { JobsClient } from './jobs/jobs.client';
import { JobsController } from './jobs/jobs.controller';
import { JobEventsRelay } from './live/job-events.relay';
import { OutputRelay } from './live/output.relay';
import { SESSION_ROOM_PROVIDERS } from './live/session-room.providers';
import { NatsOutputBus, OUTPUT_BUS } from './live/output-bus.adapter';
import { MediaClient } from './media/media.client';
import { SESSIONS_CONTROLLERS, SESSIONS_PROVIDERS } from './sessions/sessions.providers';
import { ProjectsController } from './projects/projects.controller';
import { PublicShareController } from './sharing/public-share.controller';
import { SharingController } from './sharing/sharing.controller';
import { MultipartUploadAdapter } from './uploads/multipart-upload.adapter';
import { OpenUploadRoomUseCase } from './uploads/open-upload-room.usecase';
import { ReceiveUploadUseCase } from './uploads/receive-upload.usecase';
import { UploadController } from './uploads/upload.controller';
import { NatsModule } from './nats/nats.module';
import { ExpiredSessionSweep } from './session/expired-session-sweep';
import { SessionStoreRepository } from './session/session-store.repository';
import { SessionChanges } from './session/session-changes';
import { createSessionMiddleware, SESSION_MIDDLEWARE } from './session/session.middleware';
import { UserRepository } from './users/user.repository';
import { MeController } from './users/me.controller';
import { GetStorageUsageUseCase } from './limits/get-storage-usage.usecase';
import { NatsRateWindows } from './limits/rate-window.kv';
import { NatsUploadHolds } from './limits/upload-holds.kv';
import { RequestRateGuard } from './limits/request-rate.guard';

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // The gateway shares the service kit for its database connection and object storage.
        ServiceKitModule.forRoot({ service: 'gateway', mongodbUri: config.MONGODB_URI, storage: config }),
        NatsModule.forRoot(config.NATS_URL),
      ],
      controllers: [
        AuthController,
        HealthController,
        UploadController,
        ProjectsController,
        JobsController,
        ExportController,
        SharingController,
        PublicShareController,
        MeController,
        ...SESSIONS_CONTROLLERS,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        SessionChanges,
        {
          provide: SESSION_MIDDLEWARE,
          inject: [getConnectionToken(), SessionChanges],
          useFactory: async (connection: Connection, changes: SessionChanges) => {
            await changes.connect();
            return createSessionMiddleware(config, connection, changes);
          },
        },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
        NatsRateWindows,
        NatsUploadHolds,
        { provide: APP_GUARD, useClass: RequestRateGuard },
        OidcAdapter,
        UserRepository,
        SessionStoreRepository,
        ExpiredSessionSweep,
        BeginLoginUseCase,
        CompleteLoginUseCase,
        CheckReadinessUseCase,
        LiveHub,
        MediaEventsRelay,
        JobEventsRelay,
        OwnSocketsRelay,
        StemUpdateCommand,
        { provide: OUTPUT_BUS, useFactory: () => new NatsOutputBus(config.NATS_URL) },
        OutputRelay,
        ...SESSION_ROOM_PROVIDERS,
        ...SESSIONS_PROVIDERS,
        MediaClient,
        JobsClient,
        ExportClient,
        ExportAndWaitUseCase,
        MultipartUploadAdapter,
        ReceiveUploadUseCase,
        OpenUploadRoomUseCase,
        GetStorageUsageUseCase,
        ...CLOCK_AND_ID_BINDINGS,
      ],
    };
  }
}
