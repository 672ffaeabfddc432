// Tracing first, so everything loaded after it is instrumented.
import { startTracing } from '@stemdeck/platform/tracing';
startTracing('stemdeck-sessions');

import 'reflect-metadata';
import { bootstrapService, configOrExit } from '@stemdeck/platform';
import { loadSessionsConfig } from './config';
import { SessionsModule } from './sessions.module';

const config = configOrExit(loadSessionsConfig);
void bootstrapService('sessions', SessionsModule.forRoot(config), config);
