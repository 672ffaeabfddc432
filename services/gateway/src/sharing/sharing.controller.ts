import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { CreateShareLinkBody, type CreatedShareLink, type ShareLinkRecord } from '@stemdeck/proto';
import type { Request } from 'express';
import { currentUser, SignedInGuard } from '../auth/signed-in.guard';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { ExportClient } from '../export/export.client';
import { parseInput } from '../http-input';

/** The page a share link opens (the frontend's public player), on the address users open. */
export const shareUrl = (publicUrl: string, token: string): string => `${publicUrl}/s/${encodeURIComponent(token)}`;

/** A project's share links: only its owner creates, lists and revokes them (anyone else's project or link is 404). */
@Controller('api')
@UseGuards(SignedInGuard)
export class SharingController {
  constructor(
    private readonly links: ExportClient,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'publicUrl'>,
  ) {}

  /** `{expiresInDays?: 1–365 | null}` → the link with its token and url; the token is never shown again. */
  @Post('projects/:id/share-links')
  @HttpCode(201)
  async create(@Req() req: Request, @Param('id') id: string, @Body() body: unknown): Promise<CreatedShareLink & { url: string }> {
    const link = await this.links.createShareLink(currentUser(req).id, id, parseInput(CreateShareLinkBody, body));
    return { ...link, url: shareUrl(this.config.publicUrl, link.token) };
  }

  /** The project's links, newest first, each active, expired or revoked. */
  @Get('projects/:id/share-links')
  list(@Req() req: Request, @Param('id') id: string): Promise<ShareLinkRecord[]> {
    return this.links.listShareLinks(currentUser(req).id, id);
  }

  /** Revokes a link for good: its url answers 410 from now on. */
  @Delete('share-links/:id')
  revoke(@Req() req: Request, @Param('id') id: string): Promise<ShareLinkRecord> {
    return this.links.revokeShareLink(currentUser(req).id, id);
  }
}
