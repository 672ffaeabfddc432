import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CheckReadinessUseCase, Readiness, ReadinessScope } from './check-readiness.usecase';

@Controller()
export class HealthController {
  constructor(private readonly readiness: CheckReadinessUseCase) {}

  /** Liveness: the process is up and serving. */
  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The studio's readiness: 200 when every dependency and service answers, 503 naming the failing ones. */
  @Get('readyz')
  ready(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    return this.answer('studio', res);
  }

  /** This replica's readiness (the orchestrator's probe): its own NATS and database connections. */
  @Get('readyz/replica')
  replicaReady(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    return this.answer('replica', res);
  }

  private async answer(scope: ReadinessScope, res: Response): Promise<Readiness> {
    const readiness = await this.readiness.execute(scope);
    res.status(readiness.status === 'ok' ? 200 : 503);
    return readiness;
  }
}
