import { Controller, Get, Inject, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SESSION_COOKIE } from '../session/session.middleware';
import type { SessionUser } from '../session/session-user';
import { OidcAdapter } from './oidc.adapter';
import { currentUser, SignedInGuard } from './signed-in.guard';
import { signInUnavailablePage } from './sign-in-unavailable.page';
import { BeginLoginUseCase, SignInUnavailableError } from './usecases/begin-login.usecase';
import { CompleteLoginUseCase } from './usecases/complete-login.usecase';

const promisify = (fn: (cb: (err?: unknown) => void) => void) =>
  new Promise<void>((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));

/** Sign-in and sign-out are browser navigations: /api/login, /api/callback, /api/logout. */
@Controller('api')
export class AuthController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly beginLogin: BeginLoginUseCase,
    private readonly completeLogin: CompleteLoginUseCase,
    private readonly oidc: OidcAdapter,
  ) {}

  /** Sends the browser to the provider's sign-in; a plain 503 page when the provider does not answer. */
  @Get('login')
  async login(@Req() req: Request, @Res() res: Response, @Query('returnTo') returnTo?: string): Promise<void> {
    const started = await this.beginLogin.execute(returnTo).catch((error: Error) => {
      if (!(error instanceof SignInUnavailableError)) throw error;
      res.status(503).type('html').send(signInUnavailablePage(error.message));
      return undefined;
    });
    if (!started) return;
    const { redirectUrl, pending } = started;
    req.session.pendingLogin = pending;
    await promisify((cb) => req.session.save(cb));
    res.redirect(302, redirectUrl);
  }

  @Get('callback')
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const callbackUrl = new URL(req.originalUrl, this.config.publicUrl);
    const pending = req.session.pendingLogin;
    const { user, idToken } = await this.completeLogin.execute(callbackUrl, pending);
    // New session id after sign-in (session fixation protection).
    await promisify((cb) => req.session.regenerate(cb));
    req.session.user = user;
    req.session.idToken = idToken;
    await promisify((cb) => req.session.save(cb));
    res.redirect(302, pending?.returnTo ?? '/');
  }

  @Get('logout')
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    const signedIn = Boolean(req.session?.user);
    const idToken = req.session?.idToken;
    if (req.session) await promisify((cb) => req.session.destroy(cb));
    res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.config.cookieSecure });
    // Ending the provider's session too, so the next sign-in asks for credentials again.
    res.redirect(302, signedIn ? await this.oidc.endSessionUrl(idToken) : '/');
  }

  @Get('auth/user')
  @UseGuards(SignedInGuard)
  user(@Req() req: Request): SessionUser {
    return currentUser(req);
  }
}
