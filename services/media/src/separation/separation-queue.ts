import { JetStreamWorkQueue, WorkItem, WorkOutcome } from '@stemdeck/platform';
import { SEPARATION_CONSUMER, SEPARATION_JOB_SUBJECT, SEPARATION_STREAM, SeparationJobMessage } from '@stemdeck/proto';
import type { MediaConfig } from '../config';

export type SeparationWorkItem = WorkItem<SeparationJobMessage>;
export type SeparationOutcome = WorkOutcome;

/**
 * The durable separation work queue (JetStream), configured from the media service's settings. JetStream
 * may deliver a job once more than SEPARATION_MAX_DELIVER: attempts that die without answering (a crash,
 * an out-of-memory kill) cannot mark their job failed, so that extra delivery does it without running it.
 */
export class SeparationQueue extends JetStreamWorkQueue<SeparationJobMessage> {
  constructor(config: MediaConfig) {
    super(
      {
        natsUrl: config.NATS_URL,
        name: 'stemdeck-media-separation',
        stream: SEPARATION_STREAM,
        subject: SEPARATION_JOB_SUBJECT,
        durable: SEPARATION_CONSUMER,
        ackWaitMs: config.SEPARATION_ACK_WAIT_MS,
        maxDeliver: config.SEPARATION_MAX_DELIVER + 1,
      },
      SeparationJobMessage,
    );
  }
}
