// Tracing first, so everything loaded after it is instrumented.
import { startTracing } from '@stemdeck/platform/tracing';
startTracing('stemdeck-export');

import 'reflect-metadata';
import { bootstrapService, configOrExit } from '@stemdeck/platform';
import { loadExportConfig } from './config';
import { ExportModule } from './export.module';

const config = configOrExit(loadExportConfig);
void bootstrapService('export', ExportModule.forRoot(config), config);
