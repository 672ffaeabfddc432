import { JetStreamWorkQueue } from '@stemdeck/platform';
import { EXPORT_CONSUMER, EXPORT_STREAM, EXPORT_WORK_SUBJECT, ExportWorkMessage } from '@stemdeck/proto';
import type { ExportConfig } from '../config';

/**
 * The durable export work queue (JetStream). JetStream may deliver an export once more than
 * EXPORT_MAX_DELIVER: attempts that die without answering (a crash, a kill) cannot mark their export
 * failed, so that extra delivery does it without running it.
 */
export class ExportsQueue extends JetStreamWorkQueue<ExportWorkMessage> {
  constructor(config: Pick<ExportConfig, 'NATS_URL' | 'EXPORT_ACK_WAIT_MS' | 'EXPORT_MAX_DELIVER'>) {
    super(
      {
        natsUrl: config.NATS_URL,
        name: 'stemdeck-export-work',
        stream: EXPORT_STREAM,
        subject: EXPORT_WORK_SUBJECT,
        durable: EXPORT_CONSUMER,
        ackWaitMs: config.EXPORT_ACK_WAIT_MS,
        maxDeliver: config.EXPORT_MAX_DELIVER + 1,
      },
      ExportWorkMessage,
    );
  }
}
