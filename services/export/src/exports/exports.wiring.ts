import type { ModelDefinition } from '@nestjs/mongoose';
import type { Provider, Type } from '@nestjs/common';

/** Audio and project-data exports: their models, NATS handlers and providers (wired by ExportModule). */
export const EXPORTS_MODELS: ModelDefinition[] = [];
export const EXPORTS_CONTROLLERS: Type[] = [];
export const EXPORTS_PROVIDERS: Provider[] = [];
