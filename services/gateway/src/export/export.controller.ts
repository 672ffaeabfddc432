import { Controller, UseGuards } from '@nestjs/common';
import { SignedInGuard } from '../auth/signed-in.guard';

/** Audio and project-data exports and their owner-only downloads. */
@Controller('api')
@UseGuards(SignedInGuard)
export class ExportController {}
