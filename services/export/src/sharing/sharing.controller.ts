import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { answer, parseOrFail } from '@stemdeck/platform';
import { CreateShareLinkRequest, EXPORT_SUBJECTS, ListShareLinksRequest, ResolveShareLinkRequest, RevokeShareLinkRequest } from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { CreateShareLinkUseCase } from './create-share-link.usecase';
import { ResolveShareLinkUseCase } from './resolve-share-link.usecase';
import { RevokeShareLinkUseCase } from './revoke-share-link.usecase';
import { ShareLinkQueries } from './share-link.queries';

/** The request as parsed (no expiry defaulted to null): parseOrFail's schema type has equal input and output. */
const CREATE_REQUEST = CreateShareLinkRequest as unknown as ZodType<CreateShareLinkRequest>;

/** Share links' NATS edge: validate with the proto schema, call one use-case, wrap the reply. */
@Controller()
export class SharingController {
  constructor(
    private readonly createLink: CreateShareLinkUseCase,
    private readonly revokeLink: RevokeShareLinkUseCase,
    private readonly resolveLink: ResolveShareLinkUseCase,
    private readonly queries: ShareLinkQueries,
  ) {}

  @MessagePattern(EXPORT_SUBJECTS.createShareLink)
  create(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, projectId, body } = parseOrFail(CREATE_REQUEST, payload);
      return this.createLink.execute(ownerId, projectId, body);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.listShareLinks)
  list(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, projectId } = parseOrFail(ListShareLinksRequest, payload);
      return this.queries.listForProject(ownerId, projectId);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.revokeShareLink)
  revoke(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, linkId } = parseOrFail(RevokeShareLinkRequest, payload);
      return this.revokeLink.execute(ownerId, linkId);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.resolveShareLink)
  resolve(@Payload() payload: unknown) {
    return answer(() => this.resolveLink.execute(parseOrFail(ResolveShareLinkRequest, payload).token));
  }
}
