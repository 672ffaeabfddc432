import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ProviderFailure } from '../jobs/job-runner';
import { providerRequest, sleep } from './provider-request';

/*
 * Runway's developer API (docs.dev.runwayml.com): every request carries `Authorization: Bearer <key>` and the
 * API version it was written against in `X-Runway-Version`.
 *   POST {base}/v1/text_to_video  {model, promptText (≤ 1000), ratio '1280:720', duration 2–10 s} → {id}
 *   GET  {base}/v1/tasks/{id}     → {status: PENDING|THROTTLED|RUNNING|SUCCEEDED|FAILED|CANCELLED, progress 0–1,
 *                                    output: [url…] once SUCCEEDED, failure (words) and failureCode once FAILED}
 * A task is not updated more often than every 5 s, so it is polled no faster. The output url is fetched as is
 * (it expires within a day or two). The clip is silent.
 */
export const RUNWAY_DEFAULTS = {
  apiBaseUrl: 'https://api.dev.runwayml.com',
  apiVersion: '2024-11-06',
  model: 'gen4.5',
  /** The longest clip gen4.5 makes; the job loops it over the chosen part of the song. */
  clipSeconds: 10,
  ratio: '1280:720',
  timeoutMs: 15 * 60_000,
  pollMs: 5000,
  maxPollMs: 15_000,
  retries: 3,
} as const;

export interface RunwayConfig {
  apiKey: string;
  baseUrl: string;
  model: string;
  clipSeconds: number;
  timeoutMs: number;
  pollMs: number;
  maxPollMs: number;
  retries: number;
}

/** Runway's refusal or reason, in words users can read (the job's error shows it). */
export class RunwayError extends ProviderFailure {}
/** Runway took longer than the configured limit (its task is cancelled). */
class RunwayTimeout extends RunwayError {}

interface RunwayTask {
  id: string;
  status: 'PENDING' | 'THROTTLED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  progress?: number;
  output?: string[];
  failure?: string;
  failureCode?: string;
}

/** Generates one silent clip from a text prompt and downloads it. A cancelled job cancels its Runway task too. */
export class RunwayVideoClient {
  constructor(
    private readonly config: RunwayConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** Writes the clip to `outputPath`; progress 0–1 as Runway reports it. Answers the clip's length in seconds (as asked). */
  async generate(input: { promptText: string; outputPath: string; onProgress(fraction: number): void; signal: AbortSignal }): Promise<number> {
    const { signal } = input;
    const task = await this.json<{ id: string }>('POST', '/v1/text_to_video', signal, {
      model: this.config.model,
      promptText: input.promptText,
      ratio: RUNWAY_DEFAULTS.ratio,
      duration: this.config.clipSeconds,
    });
    try {
      const url = await this.waitForOutput(task.id, input.onProgress, signal);
      const response = await this.request('GET', url, signal, {});
      await pipeline(Readable.fromWeb(response.body as never), createWriteStream(input.outputPath), { signal });
      return this.config.clipSeconds;
    } catch (error) {
      // Stopped here (cancelled, timed out): the task would go on spending the organisation's credits.
      if (signal.aborted || error instanceof RunwayTimeout) await this.cancelTask(task.id);
      throw error;
    }
  }

  private async waitForOutput(taskId: string, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<string> {
    const deadline = this.now() + this.config.timeoutMs;
    let delay = this.config.pollMs;
    for (;;) {
      const task = await this.json<RunwayTask>('GET', `/v1/tasks/${encodeURIComponent(taskId)}`, signal);
      if (typeof task.progress === 'number') onProgress(Math.min(1, Math.max(0, task.progress)));
      if (task.status === 'SUCCEEDED') {
        const url = task.output?.[0];
        if (!url) throw new RunwayError('Runway finished without a video');
        onProgress(1);
        return url;
      }
      if (task.status === 'FAILED') throw new RunwayError(`Runway could not generate the video: ${task.failure ?? task.failureCode ?? 'no reason given'}`);
      if (task.status === 'CANCELLED') throw new RunwayError('The video was cancelled at Runway');
      if (this.now() + delay > deadline) throw new RunwayTimeout(`Runway did not finish within ${Math.round(this.config.timeoutMs / 60_000)} minutes`);
      await sleep(delay, signal);
      delay = Math.min(delay * 2, this.config.maxPollMs);
    }
  }

  /** DELETE /v1/tasks/{id}: cancels a running task (best effort; the job stops either way). */
  private async cancelTask(taskId: string): Promise<void> {
    await fetch(`${this.config.baseUrl}/v1/tasks/${encodeURIComponent(taskId)}`, { method: 'DELETE', headers: this.headers(), signal: AbortSignal.timeout(5000) })
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.config.apiKey}`, 'x-runway-version': RUNWAY_DEFAULTS.apiVersion };
  }

  private async json<T>(method: string, path: string, signal: AbortSignal, body?: unknown): Promise<T> {
    const headers = this.headers();
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.request(method, `${this.config.baseUrl}${path}`, signal, headers, body === undefined ? undefined : JSON.stringify(body));
    return (await response.json()) as T;
  }

  private request(method: string, url: string, signal: AbortSignal, headers: Record<string, string>, body?: string): Promise<Response> {
    return providerRequest(method, url, headers, body === undefined ? undefined : () => body, {
      signal,
      retries: this.config.retries,
      pauseMs: this.config.pollMs,
      // 429: Runway's rate limit; 5xx: its trouble. Both are retried after a pause.
      retryStatuses: [429],
      refused: () => new RunwayError('The Runway API key was refused'),
      failed: (status, where, detail) => new RunwayError(`Runway answered ${status} to ${where}: ${detail}`),
    });
  }
}
