import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy, ClientsModule, Transport } from '@nestjs/microservices';
import { MongooseModule } from '@nestjs/mongoose';
import { CLOCK_AND_ID_BINDINGS, NATS_RECONNECT_FOREVER, NatsEventBus, NatsRpcClient, ServiceKitModule } from '@stemdeck/platform';
import { SessionsConfig } from './config';
import { NatsPresenceBoard } from './live/nats-presence.board';
import { PRESENCE_BOARD } from './sessions/sessions.ports';
import { SESSIONS_CONTROLLERS, SESSIONS_MODELS, SESSIONS_PROVIDERS } from './sessions/sessions.wiring';

const PEERS_CLIENT = 'SESSIONS_PEERS_CLIENT';

/**
 * The sessions service: collaborative sessions, their participants, chat, shared mix and transport
 * (./sessions), and presence in the live rooms (./live).
 */
@Module({})
export class SessionsModule implements OnApplicationShutdown {
  constructor(
    @Inject(NatsEventBus) private readonly bus: NatsEventBus,
    @Inject(PEERS_CLIENT) private readonly client: ClientProxy,
    @Inject(PRESENCE_BOARD) private readonly presence: NatsPresenceBoard,
  ) {}

  static forRoot(config: SessionsConfig): DynamicModule {
    return {
      module: SessionsModule,
      imports: [
        ServiceKitModule.forRoot({ service: 'sessions', mongodbUri: config.MONGODB_URI }),
        MongooseModule.forFeature(SESSIONS_MODELS),
        // Requests to the media service (the host's project and its stems).
        ClientsModule.register([
          { name: PEERS_CLIENT, transport: Transport.NATS, options: { servers: [config.NATS_URL], name: 'stemdeck-sessions-client', ...NATS_RECONNECT_FOREVER } },
        ]),
      ],
      controllers: [...SESSIONS_CONTROLLERS],
      providers: [
        { provide: NatsRpcClient, inject: [PEERS_CLIENT], useFactory: (client: ClientProxy) => new NatsRpcClient(client) },
        {
          provide: NatsEventBus,
          useFactory: async () => {
            const bus = new NatsEventBus(config.NATS_URL, 'stemdeck-sessions-events');
            await bus.connect();
            return bus;
          },
        },
        { provide: PRESENCE_BOARD, useFactory: () => NatsPresenceBoard.open(config.NATS_URL) },
        ...SESSIONS_PROVIDERS,
        ...CLOCK_AND_ID_BINDINGS,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
    await this.client.close();
    await this.presence.close();
  }
}
