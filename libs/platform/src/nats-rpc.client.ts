import { ClientProxy, NatsRecordBuilder } from '@nestjs/microservices';
import { SpanKind } from '@opentelemetry/api';
import { firstValueFrom, timeout } from 'rxjs';
import { ZodType } from 'zod';
import { injectTraceHeaders, messagingAttributes, withSpan } from './nats-trace';

/**
 * Request/reply over NATS with the active trace context in the headers and the reply validated
 * against its contract from proto/. The only way the gateway talks to services.
 */
export class NatsRpcClient {
  constructor(private readonly client: ClientProxy) {}

  request<Reply>(subject: string, payload: unknown, replySchema: ZodType<Reply>, timeoutMs = 2000): Promise<Reply> {
    return withSpan(
      `${subject} send`,
      { kind: SpanKind.PRODUCER, attributes: messagingAttributes(subject, 'send') },
      async () => {
        const record = new NatsRecordBuilder(payload).setHeaders(injectTraceHeaders()).build();
        const reply = await firstValueFrom(this.client.send(subject, record).pipe(timeout(timeoutMs)));
        return replySchema.parse(reply);
      },
    );
  }
}
