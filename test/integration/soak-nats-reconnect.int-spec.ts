import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Logger } from '@nestjs/common';
import { ClientNats } from '@nestjs/microservices';
import { NatsEventBus } from '@stemdeck/platform';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { gatewayNatsOptions } from '../../services/gateway/src/nats/nats.module';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A NATS server of this test's own (the stack's is shared with every other spec and must stay up). */
async function natsServer(port: number): Promise<ChildProcess> {
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  await sleep(400);
  return child;
}

describe('the gateway outlives a NATS outage', () => {
  let server: ChildProcess | undefined;
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterAll(() => {
    server?.kill('SIGKILL');
    jest.restoreAllMocks();
  });

  it('reconnects after more failed attempts than the client would make by default', async () => {
    const port = await freePort();
    server = await natsServer(port);
    // The retry pause is shortened so the outage outlasts the default's 10 attempts in a few seconds.
    const client = new ClientNats({ ...gatewayNatsOptions(`nats://127.0.0.1:${port}`), reconnectTimeWait: 100 });
    await client.connect();
    server.kill('SIGKILL');
    await sleep(3000); // ~25 attempts at 100 ms
    server = await natsServer(port);
    const deadline = Date.now() + 5000;
    for (;;) {
      try {
        await client.connect();
        await client.unwrap<NatsConnection>().flush();
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(100);
      }
    }
    expect(client.unwrap<NatsConnection>().isClosed()).toBe(false);
    await client.close();
  }, 20_000);

  it('the event bus (stem events to /ws) keeps its subscription through an outage and never gives up', async () => {
    const port = await freePort();
    server?.kill('SIGKILL');
    server = await natsServer(port);
    const bus = new NatsEventBus(`nats://127.0.0.1:${port}`, 'reconnect-test');
    await bus.connect();
    const received: number[] = [];
    bus.subscribe('reconnect.test', z.object({ n: z.number() }), (event) => received.push(event.n));
    const connection = (bus as unknown as { connection: NatsConnection & { options: { maxReconnectAttempts: number } } }).connection;
    expect(connection.options.maxReconnectAttempts).toBe(-1);
    server.kill('SIGKILL');
    await sleep(1000);
    server = await natsServer(port);
    const deadline = Date.now() + 10_000;
    for (let n = 0; received.length === 0; n++) {
      if (Date.now() > deadline) throw new Error('no event after the outage');
      try {
        bus.publish('reconnect.test', { n });
      } catch {}
      await sleep(200);
    }
    await bus.close();
  }, 20_000);
});
