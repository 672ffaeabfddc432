import { Controller, UseGuards } from '@nestjs/common';
import { SignedInGuard } from '../auth/signed-in.guard';

/** A project's share links: only its owner creates, lists and revokes them. */
@Controller('api')
@UseGuards(SignedInGuard)
export class SharingController {}
