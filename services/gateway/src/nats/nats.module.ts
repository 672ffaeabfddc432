import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ClientNats, ClientProxy, ClientsModule, Transport } from '@nestjs/microservices';
import { NATS_RECONNECT_FOREVER, NatsRpcClient } from '@stemdeck/platform';
import type { NatsConnection } from 'nats';

export const NATS_CLIENT = 'NATS_CLIENT';

/** Checks the NATS connection with a round trip to the server. */
export class NatsConnectionProbe {
  constructor(private readonly client: ClientNats) {}
  async ping(): Promise<void> {
    await this.client.connect();
    await this.client.unwrap<NatsConnection>().flush();
  }
}

export const gatewayNatsOptions = (natsUrl: string) => ({ servers: [natsUrl], name: 'stemdeck-gateway', ...NATS_RECONNECT_FOREVER });

@Global()
@Module({})
export class NatsModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CLIENT) private readonly client: ClientProxy) {}

  static forRoot(natsUrl: string) {
    return {
      module: NatsModule,
      imports: [ClientsModule.register([{ name: NATS_CLIENT, transport: Transport.NATS, options: gatewayNatsOptions(natsUrl) }])],
      providers: [
        { provide: NatsRpcClient, inject: [NATS_CLIENT], useFactory: (client: ClientProxy) => new NatsRpcClient(client) },
        { provide: NatsConnectionProbe, inject: [NATS_CLIENT], useFactory: (client: ClientNats) => new NatsConnectionProbe(client) },
      ],
      exports: [NatsRpcClient, NatsConnectionProbe, ClientsModule],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
