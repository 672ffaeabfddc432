import { nanos } from 'nats';
import { redeliveryBackoff } from './jetstream-work-queue';

describe('redeliveryBackoff', () => {
  it('waits the ack wait after the first delivery and twice as long after each later one', () => {
    expect(redeliveryBackoff({ ackWaitMs: 3000, maxDeliver: 5 })).toEqual([3000, 6000, 12_000, 24_000].map(nanos));
  });

  it('never lists more entries than JetStream allows for the deliveries, and at least one', () => {
    expect(redeliveryBackoff({ ackWaitMs: 30_000, maxDeliver: 2 })).toEqual([nanos(30_000)]);
    expect(redeliveryBackoff({ ackWaitMs: 30_000, maxDeliver: 1 })).toEqual([nanos(30_000)]);
  });
});
