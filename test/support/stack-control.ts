import { BASE_URL, BASE_URL_2 } from './env';

/** The stack's infrastructure processes a fault spec may stop (named as `npm test` starts them). */
export type InfraName = 'nats' | 'ferretdb' | 'minio' | 'keycloak';

/**
 * Stops (SIGKILL), starts (same command and data folder; answers once it serves again), pauses (SIGSTOP: it
 * keeps its sockets and answers nothing) or resumes one infrastructure process, through `npm test`'s control port.
 */
export async function infra(name: InfraName, action: 'stop' | 'start' | 'pause' | 'resume'): Promise<void> {
  const control = process.env.STEMDECK_STACK_CONTROL;
  if (!control) throw new Error('no stack control port: fault specs run under npm test');
  const response = await fetch(`${control}/infra/${name}/${action}`, { method: 'POST', signal: AbortSignal.timeout(280_000) });
  if (response.status !== 204) throw new Error(`${action} ${name}: ${response.status} ${await response.text()}`);
}

/** Waits until both gateway replicas answer /readyz 200 (every dependency and service back); the last answer otherwise. */
export async function waitForStudioReady(timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const base of [BASE_URL, BASE_URL_2]) {
    let last = '';
    for (;;) {
      const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) }).catch((error: Error) => error);
      if (!(response instanceof Error) && response.status === 200) break;
      last = response instanceof Error ? response.message : `${response.status} ${await response.text()}`;
      if (Date.now() > deadline) throw new Error(`${base}/readyz not 200 within ${timeoutMs} ms: ${last}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Polls `probe` until it returns a value that is not undefined. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms${lastError ? `: ${(lastError as Error).message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
