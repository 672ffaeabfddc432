import { Controller, Get, Header, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { currentUser, SignedInGuard } from '../auth/signed-in.guard';
import { GetStorageUsageUseCase } from '../limits/get-storage-usage.usecase';
import type { StorageUsage } from '../limits/storage-quota';

@Controller('api/me')
@UseGuards(SignedInGuard)
export class MeController {
  constructor(private readonly storageUsage: GetStorageUsageUseCase) {}

  /** The signed-in user's limits and what they use of them: {storage: {usedBytes, quotaBytes, remainingBytes}}. */
  @Get('usage')
  @Header('Cache-Control', 'no-store')
  async usage(@Req() req: Request): Promise<{ storage: StorageUsage }> {
    return { storage: await this.storageUsage.execute(currentUser(req).id) };
  }
}
