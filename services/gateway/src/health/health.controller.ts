import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CheckReadinessUseCase, Readiness } from './check-readiness.usecase';

@Controller()
export class HealthController {
  constructor(private readonly readiness: CheckReadinessUseCase) {}

  /** Liveness: the process is up and serving. */
  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 200 when every dependency answers, 503 with the failing ones named otherwise. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    const readiness = await this.readiness.execute();
    res.status(readiness.status === 'ok' ? 200 : 503);
    return readiness;
  }
}
