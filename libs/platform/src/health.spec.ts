import { healthReport, runChecks } from './health';

describe('runChecks', () => {
  it('reports ok, failures with their reason, and checks that hang past the timeout', async () => {
    const results = await runChecks(
      {
        fine: async () => undefined,
        broken: async () => {
          throw new Error('connection refused');
        },
        stuck: () => new Promise(() => undefined),
      },
      50,
    );
    expect(results.fine.status).toBe('ok');
    expect(results.broken).toMatchObject({ status: 'down', detail: 'connection refused' });
    expect(results.stuck).toMatchObject({ status: 'down', detail: 'no answer within 50 ms' });
  });

  it('marks the service degraded when any dependency is down', async () => {
    const report = await healthReport('media', { database: async () => undefined, storage: () => Promise.reject(new Error('no bucket')) });
    expect(report).toMatchObject({ service: 'media', status: 'degraded' });
    expect(report.checks.storage.detail).toBe('no bucket');
  });
});
