import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ProviderFailure } from '../jobs/job-runner';
import { providerRequest, sleep } from './provider-request';

/*
 * Dolby.io Media Processing API client (auth, input upload, submit, poll, output download) for the Music
 * Mastering and Enhance jobs. Written from the public reference (not reachable from here; tested against
 * test/support/provider-contract):
 *   auth    https://docs.dolby.io/media-apis/reference/get-api-token   POST /v1/auth/token (Basic key:secret,
 *           form grant_type=client_credentials&expires_in=N) → {access_token, token_type, expires_in}
 *   input   https://docs.dolby.io/media-apis/reference/media-input-post  POST /media/input {url:"dlb://…"} → {url}
 *           (a presigned URL the file is PUT to)
 *   master  https://docs.dolby.io/media-apis/reference/media-music-mastering-post  POST /media/master → {job_id};
 *           GET /media/master?job_id=… → {status: Pending|Running|Success|Failed, progress 0-100, error?}
 *   enhance https://docs.dolby.io/media-apis/reference/media-enhance-post  POST /media/enhance {input, output,
 *           content?, audio?} → {job_id}; GET /media/enhance?job_id=… (same status shape)
 *   output  https://docs.dolby.io/media-apis/reference/media-output-get  GET /media/output?url=dlb://… → 302 to the file
 */

export interface DolbyConfig {
  appKey: string;
  appSecret: string;
  /** https://api.dolby.io (override for tests). */
  authBaseUrl: string;
  /** https://api.dolby.com (override for tests). */
  apiBaseUrl: string;
  /** How long a job may take before we give up. */
  timeoutMs: number;
  /** First poll delay; doubles up to maxPollMs. */
  pollMs: number;
  maxPollMs: number;
  /** Attempts for a request answered 5xx or a network error. */
  retries: number;
}

export const DOLBY_DEFAULTS = {
  authBaseUrl: 'https://api.dolby.io',
  apiBaseUrl: 'https://api.dolby.com',
  timeoutMs: 15 * 60_000,
  pollMs: 1_000,
  maxPollMs: 10_000,
  retries: 3,
} as const;

/** Dolby's refusal or reason, in words users can read (the job's error shows it). */
export class DolbyError extends ProviderFailure {}

type Kind = 'master' | 'enhance';

interface JobStatus {
  status: 'Pending' | 'Running' | 'Success' | 'Failed' | 'InternalError';
  progress?: number;
  error?: { type?: string; title?: string; detail?: string };
}

export class DolbyMediaClient {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(
    private readonly config: DolbyConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** Masters a local file with the given /media/master output settings; the result is written to outputPath. */
  master(input: { inputPath: string; outputPath: string; master: Record<string, unknown>; onProgress(f: number): void; signal: AbortSignal }) {
    return this.run('master', input, (source, destination) => ({
      inputs: [{ source }],
      // the container: https://docs.dolby.io/media-apis/docs/how-to-specify-the-output-file-format-of-your-music-master
      outputs: [{ destination, kind: 'wav', master: input.master }],
    }));
  }

  /**
   * Enhances a local WAV file (/media/enhance options: content, audio); the result, a WAV (Enhance takes the
   * output's format from its name's extension), is written to outputPath.
   */
  enhance(input: { inputPath: string; outputPath: string; options: Record<string, unknown>; onProgress(f: number): void; signal: AbortSignal }) {
    return this.run('enhance', input, (source, destination) => ({ input: source, output: destination, ...input.options }), '.wav');
  }

  private async run(
    kind: Kind,
    input: { inputPath: string; outputPath: string; onProgress(f: number): void; signal: AbortSignal },
    body: (source: string, destination: string) => unknown,
    extension = '',
  ): Promise<void> {
    const { signal } = input;
    const name = `stemdeck/${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}${extension}`;
    const source = `dlb://in/${name}`;
    const destination = `dlb://out/${name}`;
    await this.upload(source, input.inputPath, signal);
    const submitted = await this.api<{ job_id: string }>('POST', `/media/${kind}`, signal, body(source, destination));
    const deadline = this.now() + this.config.timeoutMs;
    let delay = this.config.pollMs;
    for (;;) {
      const job = await this.api<JobStatus>('GET', `/media/${kind}?job_id=${encodeURIComponent(submitted.job_id)}`, signal);
      if (typeof job.progress === 'number') input.onProgress(Math.min(1, Math.max(0, job.progress / 100)));
      if (job.status === 'Success') break;
      if (job.status === 'Failed' || job.status === 'InternalError') {
        const reason = job.error?.detail ?? job.error?.title ?? job.error?.type ?? 'no reason given';
        throw new DolbyError(`Dolby could not process the audio: ${reason}`);
      }
      if (this.now() + delay > deadline) {
        throw new DolbyError(`Dolby did not finish within ${Math.round(this.config.timeoutMs / 60_000)} minutes`);
      }
      await sleep(delay, signal);
      delay = Math.min(delay * 2, this.config.maxPollMs);
    }
    const response = await this.request('GET', `${this.config.apiBaseUrl}/media/output?url=${encodeURIComponent(destination)}`, signal, {
      authorization: `Bearer ${await this.accessToken(signal)}`,
    });
    await pipeline(Readable.fromWeb(response.body as never), createWriteStream(input.outputPath), { signal });
  }

  private async upload(dlb: string, path: string, signal: AbortSignal): Promise<void> {
    const { url } = await this.api<{ url: string }>('POST', '/media/input', signal, { url: dlb });
    const size = (await stat(path)).size;
    await this.request('PUT', url, signal, { 'content-length': String(size) }, () => Readable.toWeb(createReadStream(path)) as never);
  }

  private async accessToken(signal: AbortSignal): Promise<string> {
    if (this.token && this.token.expiresAt > this.now()) return this.token.value;
    const basic = Buffer.from(`${this.config.appKey}:${this.config.appSecret}`).toString('base64');
    const response = await this.request('POST', `${this.config.authBaseUrl}/v1/auth/token`, signal, {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    }, () => 'grant_type=client_credentials&expires_in=1800');
    const body = (await response.json()) as { access_token: string; expires_in: number };
    // a minute's margin so a token does not expire between our check and Dolby's
    this.token = { value: body.access_token, expiresAt: this.now() + Math.max(0, body.expires_in - 60) * 1000 };
    return this.token.value;
  }

  private async api<T>(method: string, path: string, signal: AbortSignal, json?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken(signal)}` };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await this.request(method, `${this.config.apiBaseUrl}${path}`, signal, headers,
      json === undefined ? undefined : () => JSON.stringify(json));
    return (await response.json()) as T;
  }

  /** One request, retried with backoff on 5xx and network errors; 401/403 → refused credentials. */
  private request(
    method: string,
    url: string,
    signal: AbortSignal,
    headers: Record<string, string>,
    body?: () => RequestInit['body'],
  ): Promise<Response> {
    return providerRequest(method, url, headers, body, {
      signal,
      retries: this.config.retries,
      pauseMs: this.config.pollMs,
      refused: () => {
        if (!url.endsWith('/v1/auth/token')) this.token = null;
        return new DolbyError('The Dolby credentials were refused');
      },
      failed: (status, where, detail) => new DolbyError(`Dolby answered ${status} to ${where}: ${detail}`),
    });
  }
}
