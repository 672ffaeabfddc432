import type { Provider, Type } from '@nestjs/common';
import { CreateSessionUseCase } from './create-session.usecase';
import { SessionStemsUseCase } from './session-stems.usecase';
import { SessionsClient } from './sessions.client';
import { SessionsController } from './sessions.controller';

/** The collaborative sessions' REST edge: its controllers and providers, registered by the app module. */
export const SESSIONS_CONTROLLERS: Type<unknown>[] = [SessionsController];
export const SESSIONS_PROVIDERS: Provider[] = [SessionsClient, CreateSessionUseCase, SessionStemsUseCase];
