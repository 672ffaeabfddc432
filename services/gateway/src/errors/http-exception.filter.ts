import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from './domain-error';
import { errorBody } from './error-body';
import { unavailableDependencyMessage } from '@stemdeck/platform';

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}

/**
 * One place maps errors to HTTP: domain errors and HttpExceptions keep their status and message;
 * an unreachable dependency is a 503 with a plain message; anything else is a 500 whose cause is logged with
 * the errorId the client receives (no stack traces to clients).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const res = host.switchToHttp().getResponse<Response>();
    let body;
    if (exception instanceof DomainError) body = errorBody(exception.status, exception.message);
    else if (exception instanceof HttpException) body = errorBody(exception.getStatus(), messageOf(exception));
    else if (unavailableDependencyMessage(exception)) {
      body = errorBody(HttpStatus.SERVICE_UNAVAILABLE, unavailableDependencyMessage(exception)!);
      this.logger.warn(`errorId=${body.errorId} a dependency did not answer: ${(exception as Error)?.message ?? String(exception)}`);
    } else {
      body = errorBody(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
      this.logger.error(`errorId=${body.errorId} ${(exception as Error)?.stack ?? String(exception)}`);
    }
    if (res.headersSent) return;
    res.status(body.statusCode).json(body);
  }
}
