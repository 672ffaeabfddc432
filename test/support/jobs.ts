import type { SignedInAgent } from './sign-in';

/** Polls GET /api/jobs/:id until `done`, keeping every progress it read (the job specs of AI Mastering share it). */
export async function followJob<J extends { progress: number }>(
  agent: SignedInAgent,
  id: string,
  done: (job: J) => boolean,
  timeoutMs = 90_000,
): Promise<{ job: J; progress: number[] }> {
  const until = Date.now() + timeoutMs;
  const progress: number[] = [];
  for (;;) {
    const job = (await (await agent.fetch(`/api/jobs/${id}`)).json()) as J;
    progress.push(job.progress);
    if (done(job)) return { job, progress };
    if (Date.now() > until) throw new Error(`job ${id} still ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
