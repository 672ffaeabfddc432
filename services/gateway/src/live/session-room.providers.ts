import type { Provider } from '@nestjs/common';

/** The collaborative sessions' live rooms on /ws (fan-out across gateway replicas over NATS), registered by the app module. */
export const SESSION_ROOM_PROVIDERS: Provider[] = [];
