import { DependencyCheck, HealthReply } from '@stemdeck/proto';

export type CheckFn = () => Promise<unknown>;

const startedAt = Date.now();

/** Runs dependency checks concurrently, each bounded by a timeout, and reports every outcome. */
export async function runChecks(checks: Record<string, CheckFn>, timeoutMs = 2000): Promise<Record<string, DependencyCheck>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, DependencyCheck]> => {
      const began = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [name, { status: 'ok', latencyMs: Math.round(performance.now() - began) }];
      } catch (error) {
        return [name, { status: 'down', detail: (error as Error).message, latencyMs: Math.round(performance.now() - began) }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries);
}

export const allChecksOk = (checks: Record<string, DependencyCheck>): boolean => Object.values(checks).every((c) => c.status === 'ok');

export async function healthReport(service: string, checks: Record<string, CheckFn>): Promise<HealthReply> {
  const results = await runChecks(checks);
  return {
    service,
    status: allChecksOk(results) ? 'ok' : 'degraded',
    version: process.env.npm_package_version ?? '0.1.0',
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    checks: results,
  };
}
