// The HTTP probe port of the NATS-only services (what a Kubernetes probe calls on each pod), against the real
// stack: every service is live and ready with the checks of its NATS health request plus its own NATS link;
// and one more `export` process, wired through its own NATS server and a proxy to the real object storage,
// turns unready naming the dependency it lost while staying live, and ready again when it is back.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const serviceHealth: Record<string, string> = JSON.parse(process.env.STEMDECK_SERVICE_HEALTH ?? '{}');

interface Report {
  status: string;
  service: string;
  checks: Record<string, { status: string; detail?: string }>;
}

const get = async (url: string): Promise<{ status: number; body: Report }> => {
  const response = await fetch(url, { signal: AbortSignal.timeout(8000) });
  return { status: response.status, body: (await response.json()) as Report };
};

const freePort = () =>
  new Promise<number>((resolveWith) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolveWith(port));
    });
  });

/** Polls until `probe` answers `status` (the checks run with a 2 s timeout, the NATS client reconnects in ~2 s). */
async function until(url: string, status: number, timeoutMs = 20_000): Promise<Report> {
  const deadline = Date.now() + timeoutMs;
  let last: { status: number; body: Report } | undefined;
  while (Date.now() < deadline) {
    last = await get(url).catch(() => undefined);
    if (last?.status === status) return last.body;
    await sleep(250);
  }
  throw new Error(`${url} did not answer ${status}; last: ${JSON.stringify(last)}`);
}

/** A TCP proxy that can be taken down (listener closed, open connections cut) and brought back on its port. */
class Cuttable {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}
  up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    return new Promise((resolveWith) => this.server!.listen(this.port, '127.0.0.1', () => resolveWith()));
  }
  down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolveWith) => (this.server ? this.server.close(() => resolveWith()) : resolveWith()));
  }
}

describe('NATS services: HTTP probe port', () => {
  it.each(['media', 'jobs', 'sessions', 'export'])('%s is live, and ready with its own NATS link and its dependencies', async (service) => {
    const base = serviceHealth[service];
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const live = await get(`${base}/healthz`);
    expect(live).toEqual({ status: 200, body: { status: 'ok', service } });
    const ready = await get(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ service, status: 'ok' });
    const expected = service === 'sessions' ? ['database', 'nats'] : ['database', 'nats', 'storage'];
    expect(Object.keys(ready.body.checks).sort()).toEqual(expected);
    for (const check of Object.values(ready.body.checks)) expect(check.status).toBe('ok');
  });

  describe('one pod losing a dependency', () => {
    let nats: ChildProcess | undefined;
    let worker: ChildProcess | undefined;
    let storage: Cuttable;
    let natsPort: number;
    let url: string;
    const natsDir = mkdtempSync(join(tmpdir(), 'stemdeck-health-nats-'));
    // Its own NATS server: the extra worker must not take jobs or requests from the shared stack.
    const startNats = async () => {
      nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', natsDir], { stdio: 'ignore' });
      await sleep(500);
    };

    beforeAll(async () => {
      natsPort = await freePort();
      await startNats();
      const s3 = new URL(process.env.S3_ENDPOINT!);
      storage = new Cuttable(await freePort(), { host: s3.hostname, port: Number(s3.port) });
      await storage.up();
      const healthPort = await freePort();
      url = `http://127.0.0.1:${healthPort}`;
      worker = spawn(process.execPath, [join(ROOT, 'services', 'export', 'dist', 'main.js')], {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          OTEL_EXPORTER_OTLP_ENDPOINT: '',
          NATS_URL: `nats://127.0.0.1:${natsPort}`,
          S3_ENDPOINT: `http://127.0.0.1:${storage.port}`,
          HEALTH_PORT: String(healthPort),
        },
        stdio: 'ignore',
      });
      await until(`${url}/readyz`, 200, 60_000);
    }, 90_000);

    afterAll(async () => {
      worker?.kill('SIGKILL');
      nats?.kill('SIGKILL');
      await storage?.down();
      rmSync(natsDir, { recursive: true, force: true });
    });

    it('turns unready naming NATS while its server is gone, stays live, and recovers by itself', async () => {
      nats!.kill('SIGKILL');
      const report = await until(`${url}/readyz`, 503);
      expect(report.checks.nats.status).toBe('down');
      expect(report.checks.database.status).toBe('ok');
      expect((await get(`${url}/healthz`)).status).toBe(200);
      await startNats();
      const back = await until(`${url}/readyz`, 200, 30_000);
      expect(back.checks.nats.status).toBe('ok');
    }, 60_000);

    it('turns unready naming object storage while it is unreachable, and recovers when it is back', async () => {
      await storage.down();
      const report = await until(`${url}/readyz`, 503);
      expect(report.checks.storage.status).toBe('down');
      expect(report.checks.nats.status).toBe('ok');
      expect((await get(`${url}/healthz`)).status).toBe(200);
      await storage.up();
      await until(`${url}/readyz`, 200);
    }, 60_000);
  });
});
