import type { JobEvent, JobWorkMessage } from '@stemdeck/proto';
import type { JobEvents, JobQueue } from '../jobs/jobs.ports';

/** Keeps every event published, in order. */
export class RecordingJobEvents implements JobEvents {
  readonly published: JobEvent[] = [];

  publish(event: JobEvent): void {
    this.published.push(event);
  }

  types(): JobEvent['type'][] {
    return this.published.map((event) => event.type);
  }
}

/** The job queue as a list; set `failure` to have publishing reject with it. */
export class RecordingJobQueue implements JobQueue {
  readonly queued: Array<{ jobId: string; message: JobWorkMessage }> = [];
  failure?: Error;

  async publish(jobId: string, message: JobWorkMessage): Promise<void> {
    if (this.failure) throw this.failure;
    this.queued.push({ jobId, message });
  }
}
