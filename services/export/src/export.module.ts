import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy, ClientsModule, Transport } from '@nestjs/microservices';
import { MongooseModule } from '@nestjs/mongoose';
import { CLOCK_AND_ID_BINDINGS, NATS_RECONNECT_FOREVER, NatsEventBus, NatsRpcClient, ServiceKitModule } from '@stemdeck/platform';
import { EXPORT_CONFIG, ExportConfig } from './config';
import { EXPORTS_CONTROLLERS, EXPORTS_MODELS, EXPORTS_PROVIDERS } from './exports/exports.wiring';
import { SHARING_CONTROLLERS, SHARING_MODELS, SHARING_PROVIDERS } from './sharing/sharing.wiring';

const PEERS_CLIENT = 'EXPORT_PEERS_CLIENT';

/** The export service: audio and project-data exports (./exports) and share links (./sharing). */
@Module({})
export class ExportModule implements OnApplicationShutdown {
  constructor(
    @Inject(NatsEventBus) private readonly bus: NatsEventBus,
    @Inject(PEERS_CLIENT) private readonly client: ClientProxy,
  ) {}

  static forRoot(config: ExportConfig): DynamicModule {
    return {
      module: ExportModule,
      imports: [
        ServiceKitModule.forRoot({ service: 'export', mongodbUri: config.MONGODB_URI, storage: config }),
        MongooseModule.forFeature([...EXPORTS_MODELS, ...SHARING_MODELS]),
        // Requests to the media and jobs services (projects, stems, analysis, mastering results).
        ClientsModule.register([
          { name: PEERS_CLIENT, transport: Transport.NATS, options: { servers: [config.NATS_URL], name: 'stemdeck-export-client', ...NATS_RECONNECT_FOREVER } },
        ]),
      ],
      controllers: [...EXPORTS_CONTROLLERS, ...SHARING_CONTROLLERS],
      providers: [
        { provide: EXPORT_CONFIG, useValue: config },
        { provide: NatsRpcClient, inject: [PEERS_CLIENT], useFactory: (client: ClientProxy) => new NatsRpcClient(client) },
        {
          provide: NatsEventBus,
          useFactory: async () => {
            const bus = new NatsEventBus(config.NATS_URL, 'stemdeck-export-events');
            await bus.connect();
            return bus;
          },
        },
        ...EXPORTS_PROVIDERS,
        ...SHARING_PROVIDERS,
        ...CLOCK_AND_ID_BINDINGS,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
    await this.client.close();
  }
}
