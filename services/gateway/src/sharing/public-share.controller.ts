import { Controller } from '@nestjs/common';

/** What a share link opens, signed out: the shared project's read-only view and its stems' audio. */
@Controller('api/share')
export class PublicShareController {}
