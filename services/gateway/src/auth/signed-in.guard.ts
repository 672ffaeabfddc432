import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import type { SessionUser } from '../session/session-user';

/** Lets only signed-in sessions through; the rest get 401 JSON. */
@Injectable()
export class SignedInGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.session?.user) throw new UnauthorizedException('Not signed in');
    return true;
  }
}

export const currentUser = (req: Request): SessionUser => {
  if (!req.session?.user) throw new UnauthorizedException('Not signed in');
  return req.session.user;
};
