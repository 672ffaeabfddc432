import { JetStreamWorkQueue } from '@stemdeck/platform';
import { JOBS_CONSUMER, JOBS_STREAM, JOBS_WORK_SUBJECT, JobWorkMessage } from '@stemdeck/proto';
import type { JobsConfig } from '../config';

/**
 * The durable jobs work queue (JetStream). JetStream may deliver a job once more than JOBS_MAX_DELIVER:
 * attempts that die without answering (a crash, a kill) cannot mark their job failed, so that extra
 * delivery does it without running it.
 */
export class JobsQueue extends JetStreamWorkQueue<JobWorkMessage> {
  constructor(config: JobsConfig) {
    super(
      {
        natsUrl: config.NATS_URL,
        name: 'stemdeck-jobs-work',
        stream: JOBS_STREAM,
        subject: JOBS_WORK_SUBJECT,
        durable: JOBS_CONSUMER,
        ackWaitMs: config.JOBS_ACK_WAIT_MS,
        maxDeliver: config.JOBS_MAX_DELIVER + 1,
      },
      JobWorkMessage,
    );
  }
}
