import type { MediaEvent, SeparationJobMessage } from '@stemdeck/proto';
import type { SeparationEvents, SeparationJobQueue } from '../separation/separation.ports';

/** Keeps every event published, in order; `onPublish` lets a test act at a given moment (e.g. delete the project). */
export class RecordingEvents implements SeparationEvents {
  readonly published: MediaEvent[] = [];
  onPublish?: (event: MediaEvent) => void;

  publish(event: MediaEvent): void {
    this.published.push(event);
    this.onPublish?.(event);
  }

  types(): MediaEvent['type'][] {
    return this.published.map((event) => event.type);
  }
}

/** The job queue as a list; set `failure` to have publishing reject with it. */
export class RecordingJobQueue implements SeparationJobQueue {
  readonly queued: Array<{ jobId: string; message: SeparationJobMessage }> = [];
  failure?: Error;

  async publish(jobId: string, message: SeparationJobMessage): Promise<void> {
    if (this.failure) throw this.failure;
    this.queued.push({ jobId, message });
  }
}
