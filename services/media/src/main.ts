// Tracing first, so everything loaded after it is instrumented.
import { startTracing } from '@stemdeck/platform/tracing';
startTracing('stemdeck-media');

import 'reflect-metadata';
import { bootstrapService, configOrExit } from '@stemdeck/platform';
import { loadMediaConfig } from './config';
import { MediaModule } from './media.module';

const config = configOrExit(loadMediaConfig);
void bootstrapService('media', MediaModule.forRoot(config), config);
