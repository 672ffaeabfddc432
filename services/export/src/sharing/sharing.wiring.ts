import type { ModelDefinition } from '@nestjs/mongoose';
import type { Provider, Type } from '@nestjs/common';
import { CreateShareLinkUseCase } from './create-share-link.usecase';
import { DeleteProjectShareLinksUseCase } from './delete-project-share-links.usecase';
import { MediaSharedProjectsAdapter } from './media-projects.adapter';
import { ShareLinksProjectDeletedListener } from './project-deleted.listener';
import { ResolveShareLinkUseCase } from './resolve-share-link.usecase';
import { RevokeShareLinkUseCase } from './revoke-share-link.usecase';
import { SHARE_LINK_MODEL, ShareLinkSchema } from './share-link.schema';
import { ShareLinkQueries } from './share-link.queries';
import { ShareLinkRepository } from './share-link.repository';
import { SharingController } from './sharing.controller';
import { SHARE_LINK_STORE, SHARED_PROJECTS } from './sharing.ports';

/** Share links: their model, NATS handlers and providers (wired by ExportModule). */
export const SHARING_MODELS: ModelDefinition[] = [{ name: SHARE_LINK_MODEL, schema: ShareLinkSchema }];
export const SHARING_CONTROLLERS: Type[] = [SharingController];
export const SHARING_PROVIDERS: Provider[] = [
  ShareLinkRepository,
  MediaSharedProjectsAdapter,
  { provide: SHARE_LINK_STORE, useExisting: ShareLinkRepository },
  { provide: SHARED_PROJECTS, useExisting: MediaSharedProjectsAdapter },
  CreateShareLinkUseCase,
  ShareLinkQueries,
  RevokeShareLinkUseCase,
  ResolveShareLinkUseCase,
  DeleteProjectShareLinksUseCase,
  ShareLinksProjectDeletedListener,
];
