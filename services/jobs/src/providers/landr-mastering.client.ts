import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ProviderFailure } from '../jobs/job-runner';
import { providerRequest, sleep } from './provider-request';

/*
 * LANDR mastering: LANDR publishes NO public mastering API (its mastering is offered to partners under
 * agreement; no public reference was found). This client is written against the ASSUMED shape of a typical
 * partner job API — every path and field below is our expectation, not documentation — so that a partner
 * contract only means adjusting this file and test/support/provider-contract/landr-contract-server.ts:
 *   POST {base}/v1/uploads            (Bearer API key)          → {uploadUrl, assetId}; PUT the file to uploadUrl
 *   POST {base}/v1/masters            {assetId, style, intensity} → {id}
 *   GET  {base}/v1/masters/{id}       → {status: queued|processing|completed|failed, progress 0-100, failureReason?, downloadUrl?}
 */
export interface LandrConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  pollMs: number;
  maxPollMs: number;
  retries: number;
}

/** LANDR's refusal or reason, in words users can read (the job's error shows it). */
export class LandrError extends ProviderFailure {}

export class LandrMasteringClient {
  constructor(
    private readonly config: LandrConfig,
    private readonly now: () => number = Date.now,
  ) {}

  async master(input: { inputPath: string; outputPath: string; style: string; intensity: 1 | 2 | 3; onProgress(f: number): void; signal: AbortSignal }): Promise<void> {
    const { signal } = input;
    const upload = await this.json<{ uploadUrl: string; assetId: string }>('POST', '/v1/uploads', signal, {});
    const size = (await stat(input.inputPath)).size;
    await this.request('PUT', upload.uploadUrl, signal, { 'content-length': String(size) }, () => Readable.toWeb(createReadStream(input.inputPath)) as never);
    const job = await this.json<{ id: string }>('POST', '/v1/masters', signal, { assetId: upload.assetId, style: input.style, intensity: input.intensity });
    const deadline = this.now() + this.config.timeoutMs;
    let delay = this.config.pollMs;
    for (;;) {
      const status = await this.json<{ status: string; progress?: number; failureReason?: string; downloadUrl?: string }>('GET', `/v1/masters/${encodeURIComponent(job.id)}`, signal);
      if (typeof status.progress === 'number') input.onProgress(Math.min(1, Math.max(0, status.progress / 100)));
      if (status.status === 'completed' && status.downloadUrl) {
        const response = await this.request('GET', status.downloadUrl, signal, {});
        await pipeline(Readable.fromWeb(response.body as never), createWriteStream(input.outputPath), { signal });
        return;
      }
      if (status.status === 'failed') throw new LandrError(`LANDR could not master the audio: ${status.failureReason ?? 'no reason given'}`);
      if (this.now() + delay > deadline) throw new LandrError(`LANDR did not finish within ${Math.round(this.config.timeoutMs / 60_000)} minutes`);
      await sleep(delay, signal);
      delay = Math.min(delay * 2, this.config.maxPollMs);
    }
  }

  private async json<T>(method: string, path: string, signal: AbortSignal, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.config.apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.request(method, `${this.config.baseUrl}${path}`, signal, headers, body === undefined ? undefined : () => JSON.stringify(body));
    return (await response.json()) as T;
  }

  private request(method: string, url: string, signal: AbortSignal, headers: Record<string, string>, body?: () => RequestInit['body']): Promise<Response> {
    return providerRequest(method, url, headers, body, {
      signal,
      retries: this.config.retries,
      pauseMs: this.config.pollMs,
      refused: () => new LandrError('The LANDR credentials were refused'),
      failed: (status, where, detail) => new LandrError(`LANDR answered ${status} to ${where}: ${detail}`),
    });
  }
}
