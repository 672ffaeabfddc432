// Tracing first, so http and express are instrumented when they load.
import { startTracing } from '@stemdeck/platform/tracing';
startTracing('stemdeck-gateway');

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { configOrExit, setMetricsProcess, unavailableDependencyMessage } from '@stemdeck/platform';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AppModule } from './app.module';
import { loadGatewayConfig } from './config';
import { sendError } from './errors/error-body';
import { serveFrontend } from './frontend/serve-frontend';
import { serveGatewayMetrics } from './metrics/gateway-metrics';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { browserSecurityHeaders } from './security/browser-security-headers';
import { csrfProtection } from './security/csrf.middleware';
import { earlyAnswerLinger } from './security/early-answer.middleware';
import { BODY_TOO_LARGE, jsonBodyLimit } from './security/json-body-limit.middleware';
import { SESSION_MIDDLEWARE } from './session/session.middleware';

const KEEP_ALIVE_MS = 65_000;
const JSON_LIMIT_BYTES = 1024 * 1024;

async function bootstrap(): Promise<void> {
  const config = configOrExit(loadGatewayConfig);
  setMetricsProcess('gateway');
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bodyParser: false });
  const http = app.getHttpAdapter().getInstance();
  http.disable('x-powered-by');
  if (config.TRUST_PROXY) http.set('trust proxy', 1);
  // Before everything else, so every answer is counted and timed.
  http.use(httpMetrics());
  // A refusal sent before the body has arrived (an upload over the quota) must reach the client.
  http.use(earlyAnswerLinger());
  // First, so every answer carries them: pages, assets, API answers, 404s and errors.
  http.use(browserSecurityHeaders(config.publicUrl));

  if (config.FRONTEND_DIR) serveFrontend(http, config.FRONTEND_DIR);
  // A JSON body over the limit is refused once that is known: express.json would read all of it first.
  app.use(jsonBodyLimit(JSON_LIMIT_BYTES));
  app.use(express.json({ limit: JSON_LIMIT_BYTES }));
  // Malformed JSON bodies answer 400 in the API's error shape instead of an HTML stack page.
  app.use((error: Error & { type?: string; status?: number }, _req: Request, res: Response, next: NextFunction) => {
    if (error.type === 'entity.parse.failed') return sendError(res, 400, 'Malformed JSON in request body');
    // Answered already by jsonBodyLimit, before the rest of the body.
    if (error.type === 'entity.too.large') return res.headersSent ? undefined : sendError(res, 413, BODY_TOO_LARGE);
    next(error);
  });
  app.use(app.get<RequestHandler>(SESSION_MIDDLEWARE));
  // The session store is in the database: while it is unreachable, a plain 503 instead of express's 500 page.
  app.use((error: Error, _req: Request, res: Response, next: NextFunction) => {
    const unavailable = unavailableDependencyMessage(error);
    if (unavailable && !res.headersSent) return sendError(res, 503, unavailable);
    next(error);
  });
  app.use(csrfProtection(config.allowedOrigins));
  app.enableShutdownHooks();

  const server = await app.listen(config.PORT, config.HOST);
  await serveGatewayMetrics(config);
  // An idle keep-alive connection is closed by the client or the ingress in front, not by us first: a server
  // closing it just as a client sends a POST on it fails that request ("other side closed"; undici does not
  // retry a POST), and ingress idle timeouts are 60 s. Node's default is 5 s.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  new Logger('gateway').log(`listening on http://${config.HOST}:${config.PORT} (public ${config.publicUrl})`);
}

void bootstrap();
