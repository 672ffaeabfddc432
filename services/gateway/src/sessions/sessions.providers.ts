import type { Provider, Type } from '@nestjs/common';
import { SessionsClient } from './sessions.client';

/** The collaborative sessions' REST edge: its controllers and providers, registered by the app module. */
export const SESSIONS_CONTROLLERS: Type<unknown>[] = [];
export const SESSIONS_PROVIDERS: Provider[] = [SessionsClient];
