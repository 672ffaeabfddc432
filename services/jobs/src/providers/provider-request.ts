/** A pause that ends early, rejecting with the signal's reason, when the signal aborts. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export interface ProviderRequestOptions {
  signal: AbortSignal;
  /** Attempts in all. */
  retries: number;
  /** The pause after attempt n is pauseMs × n. */
  pauseMs: number;
  /** Statuses worth another attempt besides 5xx (e.g. a rate limit's 429). */
  retryStatuses?: readonly number[];
  /** The provider's own error for refused credentials (401, 403). */
  refused(): Error;
  /** The provider's own error for any other answer that is not ok: `where` is "METHOD /path", `detail` the answer's first 200 characters. */
  failed(status: number, where: string, detail: string): Error;
}

/**
 * One request to a cloud provider, retried after a growing pause on network errors and 5xx (and
 * `retryStatuses`); the body is made again for each attempt (a stream can be read once).
 */
export async function providerRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: (() => RequestInit['body']) | undefined,
  options: ProviderRequestOptions,
): Promise<Response> {
  const { signal, retries, pauseMs } = options;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: body?.(), signal, duplex: 'half' } as RequestInit);
    } catch (error) {
      if (signal.aborted || attempt >= retries) throw signal.aborted ? signal.reason : error;
      await sleep(pauseMs * attempt, signal);
      continue;
    }
    if (response.ok) return response;
    if (response.status === 401 || response.status === 403) throw options.refused();
    const retryable = response.status >= 500 || (options.retryStatuses ?? []).includes(response.status);
    if (retryable && attempt < retries) {
      await response.body?.cancel();
      await sleep(pauseMs * attempt, signal);
      continue;
    }
    throw options.failed(response.status, `${method} ${new URL(url).pathname}`, (await response.text()).slice(0, 200));
  }
}
