/**
 * A stand-in for the browser's fetch in the frontend's jsdom unit specs (jsdom has no fetch, Request or
 * Response): answers are queued per method and path, every request is recorded with its JSON body, and an
 * answer can be held back to see a panel's in-between state. Not part of the app.
 */

export interface FakeAnswer {
  status: number;
  body?: unknown;
}

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

class FakeRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;
  constructor(url: string, init: { method?: string; headers?: HeadersInit; body?: unknown; signal?: AbortSignal } = {}) {
    this.url = url;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = new Headers(init.headers);
    this.body = init.body;
    this.signal = init.signal;
  }
  clone(): FakeRequest {
    return this;
  }
}

function fakeResponse({ status, body }: FakeAnswer) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers = new Headers(body === undefined ? {} : { 'content-type': 'application/json' });
  const response = { status, ok: status >= 200 && status < 300, statusText: '', headers, text: async () => text, json: async () => JSON.parse(text) as unknown, clone: () => response };
  return response;
}

/**
 * Installs the fake on globalThis until `restore()`. `answer(method, path, ...)` queues answers for a request
 * (the last one repeats); `hold(method, path)` keeps the next such request waiting until its `release()`.
 */
export function installFakeFetch() {
  const queued = new Map<string, FakeAnswer[]>();
  const held = new Map<string, Array<() => void>>();
  const holds = new Set<string>();
  const sent: SentRequest[] = [];
  const saved = { fetch: globalThis.fetch, Request: globalThis.Request, Response: globalThis.Response };
  const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

  const fetch = async (request: FakeRequest) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    const body = typeof request.body === 'string' && request.body ? (JSON.parse(request.body) as unknown) : undefined;
    sent.push({ method: request.method, path, body });
    const id = key(request.method, path);
    if (holds.delete(id)) await new Promise<void>((resolve) => held.set(id, [...(held.get(id) ?? []), resolve]));
    const answers = queued.get(id);
    if (!answers?.length) return fakeResponse({ status: 404, body: { message: `no fake answer for ${id}` } });
    return fakeResponse(answers.length > 1 ? answers.shift()! : answers[0]!);
  };
  Object.assign(globalThis, { fetch, Request: FakeRequest, Response: fakeResponse });

  return {
    sent,
    answer(method: string, path: string, ...answers: FakeAnswer[]) {
      queued.set(key(method, path), answers);
    },
    hold(method: string, path: string) {
      holds.add(key(method, path));
    },
    release(method: string, path: string) {
      for (const resolve of held.get(key(method, path)) ?? []) resolve();
      held.delete(key(method, path));
    },
    restore() {
      Object.assign(globalThis, saved);
    },
  };
}
