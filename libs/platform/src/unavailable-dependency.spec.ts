import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import { answer, RpcFailure } from './rpc-reply';
import { DATABASE_UNAVAILABLE, SERVICE_UNAVAILABLE, unavailableDependencyMessage } from './unavailable-dependency';

const named = (name: string, message = 'x', extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { name, ...extra });

describe('unavailableDependencyMessage', () => {
  it('names the database for the driver\'s connection errors and mongoose\'s buffering timeout', () => {
    for (const error of [
      named('MongoServerSelectionError', 'connect ECONNREFUSED 127.0.0.1:27018'),
      named('MongoNetworkError'),
      named('MongoNotConnectedError'),
      named('MongooseError', 'Operation `users.findOne()` buffering timed out after 10000ms'),
    ]) {
      expect(unavailableDependencyMessage(error)).toBe(DATABASE_UNAVAILABLE);
    }
  });

  it('reads socket errors, timeouts and NATS no-responders (also as Nest\'s client reports them), also as a cause or inside an AggregateError', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:19000'), { code: 'ECONNREFUSED' });
    for (const error of [
      refused,
      new Error('fetch failed', { cause: refused }),
      new AggregateError([refused]),
      named('TimeoutError', 'Timeout has occurred'),
      named('NatsError', '503', { code: '503' }),
      named('NatsError', 'TIMEOUT', { code: 'TIMEOUT' }),
      named('NatsError', 'CONNECTION_CLOSED', { code: 'CONNECTION_CLOSED' }),
      new EmptyResponseException('stemdeck.media.uploads.ingest'),
      'Error: Connection lost. Trying to reconnect...',
    ]) {
      expect(unavailableDependencyMessage(error)).toBe(SERVICE_UNAVAILABLE);
    }
  });

  it('leaves every other error alone (a 500 stays a 500)', () => {
    for (const error of [new Error('boom'), new TypeError('x is undefined'), named('MongoServerError', 'E11000 duplicate key'), named('NatsError', 'x', { code: 'BAD_JSON' }), 'text', undefined]) {
      expect(unavailableDependencyMessage(error)).toBeUndefined();
    }
  });

  it('makes a service reply 503 with the plain message when its database does not answer', async () => {
    await expect(answer(() => Promise.reject(named('MongoNotConnectedError')))).resolves.toEqual({ ok: false, status: 503, message: DATABASE_UNAVAILABLE });
    await expect(answer(() => Promise.reject(new RpcFailure(404, 'Project not found')))).resolves.toEqual({ ok: false, status: 404, message: 'Project not found' });
    await expect(answer(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
