import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small HTTP server for the orchestrator or Prometheus, never for users (probes, metrics). */
export interface InternalHttpServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on host:port (0 picks a free port). It holds no state worth waiting for, so it never keeps a stopping process alive. */
export async function listenInternal(host: string, port: number, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<InternalHttpServer> {
  const server = createServer(handle);
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
