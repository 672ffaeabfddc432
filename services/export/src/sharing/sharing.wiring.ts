import type { ModelDefinition } from '@nestjs/mongoose';
import type { Provider, Type } from '@nestjs/common';

/** Share links: their model, NATS handlers and providers (wired by ExportModule). */
export const SHARING_MODELS: ModelDefinition[] = [];
export const SHARING_CONTROLLERS: Type[] = [];
export const SHARING_PROVIDERS: Provider[] = [];
