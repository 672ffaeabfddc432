// Tracing first, so everything loaded after it is instrumented.
import { startTracing } from '@stemdeck/platform/tracing';
startTracing('stemdeck-jobs');

import 'reflect-metadata';
import { bootstrapService, configOrExit } from '@stemdeck/platform';
import { loadJobsConfig } from './config';
import { JobsModule } from './jobs.module';

const config = configOrExit(loadJobsConfig);
void bootstrapService('jobs', JobsModule.forRoot(config), config);
