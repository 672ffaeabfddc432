import type { Provider } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { NatsSessionRoomBus, SESSION_ROOM_BUS } from './session-room-bus.adapter';
import { SessionRoom } from './session-room';

/** The collaborative sessions' live rooms on /ws (fan-out across gateway replicas over NATS), registered by the app module. */
export const SESSION_ROOM_PROVIDERS: Provider[] = [
  { provide: SESSION_ROOM_BUS, inject: [GATEWAY_CONFIG], useFactory: (config: GatewayConfig) => new NatsSessionRoomBus(config.NATS_URL) },
  SessionRoom,
];
