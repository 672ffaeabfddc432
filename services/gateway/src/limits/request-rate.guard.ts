import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '@stemdeck/platform';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { DomainError } from '../errors/domain-error';
import { NatsRateWindows } from './rate-window.kv';
import { RATE_LIMITED_MESSAGE, RequestRateLimiter, type RateWindowStore } from './request-rate.limiter';

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WINDOW_MS = 60_000;

/**
 * Mutating /api requests are limited per signed-in user (per client address when signed out): over the
 * limit in a minute, 429 with Retry-After and plain words. Reads are never limited. When the shared count
 * cannot be read the request goes through (logged): a NATS hiccup must not refuse every change.
 */
@Injectable()
export class RequestRateGuard implements CanActivate {
  private readonly logger = new Logger(RequestRateGuard.name);
  private readonly limiter: RequestRateLimiter;

  constructor(
    @Inject(NatsRateWindows) store: RateWindowStore,
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'RATE_LIMIT_REQUESTS_PER_MINUTE'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.limiter = new RequestRateLimiter(store, config.RATE_LIMIT_REQUESTS_PER_MINUTE, WINDOW_MS);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!MUTATING_METHODS.has(req.method) || !req.path.startsWith('/api/')) return true;
    const user = req.session?.user;
    const key = user ? `user:${user.id}` : `address:${req.ip ?? 'unknown'}`;
    let decision;
    try {
      decision = await this.limiter.check(key, this.clock.now());
    } catch (error) {
      this.logger.warn(`rate count unavailable, letting the request through: ${(error as Error).message}`);
      return true;
    }
    if (decision.allowed) return true;
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new DomainError(429, RATE_LIMITED_MESSAGE);
  }
}
