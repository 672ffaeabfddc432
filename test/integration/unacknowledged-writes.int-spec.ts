import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'bson';
import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { CSRF } from '../support/env';
import { listen, makeClip, upload } from '../support/media';
import { signIn } from '../support/sign-in';

// The guard is plain CommonJS so the test runner script and these specs share one file.
const { startMongoWireGuard, inspectMessage } = require('../../scripts/mongo-wire-guard.cjs') as {
  startMongoWireGuard(options: { port?: number; target: { host: string; port: number }; recordFile?: string; log?: (line: string) => void }): Promise<{
    port: number;
    findings: Array<Record<string, unknown>>;
    close(): Promise<void>;
  }>;
  inspectMessage(message: Buffer): { handshakeApp?: string; finding?: Record<string, unknown> };
};

const recorded = (): Array<Record<string, unknown>> => {
  const file = process.env.MONGO_GUARD_RECORD;
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
};

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A legacy OP_QUERY message (opcode 2004) carrying `command` on `<db>.$cmd`. */
function opQuery(command: Record<string, unknown>): Buffer {
  const namespace = Buffer.from('stemdeck.$cmd\0');
  const document = Buffer.from(serialize(command));
  const skipAndReturn = Buffer.alloc(8);
  skipAndReturn.writeInt32LE(-1, 4);
  const message = Buffer.concat([Buffer.alloc(16), Buffer.alloc(4) /* flags */, namespace, skipAndReturn, document]);
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(2004, 12);
  return message;
}

describe('no unacknowledged database writes', () => {
  it('the wire guard records a deliberate w:0 write sent through it, and nothing for acknowledged ones', async () => {
    const direct = new URL(process.env.MONGODB_DIRECT_URI ?? 'mongodb://127.0.0.1:37017/stemdeck');
    const recordFile = join(mkdtempSync(join(tmpdir(), 'wire-guard-')), 'findings.jsonl');
    const guard = await startMongoWireGuard({ target: { host: direct.hostname, port: Number(direct.port) }, recordFile, log: () => undefined });
    const client = await MongoClient.connect(`mongodb://127.0.0.1:${guard.port}/stemdeck`, { appName: 'guard-self-test', maxPoolSize: 1 });
    try {
      const scratch = client.db().collection('wire_guard_self_test');
      await scratch.insertOne({ probe: 1, padding: 'x'.repeat(2_000_000) }); // spans many TCP chunks
      await scratch.updateOne({ probe: 1 }, { $set: { probe: 2 } });
      await scratch.findOne({ probe: 2 });
      await scratch.deleteMany({ probe: 2 }, { writeConcern: { w: 'majority' } });
      expect(guard.findings).toEqual([]);

      await scratch.deleteMany({ probe: 3 }, { writeConcern: { w: 0 } });
      await until('the guard records the w:0 delete', () => guard.findings.length > 0, 5000);
      expect(guard.findings).toEqual([
        expect.objectContaining({ app: 'guard-self-test', command: 'delete', collection: 'wire_guard_self_test', writeConcern: { w: 0 } }),
      ]);
      expect(readFileSync(recordFile, 'utf8').trim().split('\n')).toHaveLength(1);
    } finally {
      await client.close(true);
      await guard.close();
    }
  });

  it('reads legacy OP_QUERY commands and legacy write opcodes too', () => {
    expect(inspectMessage(opQuery({ insert: 'users', documents: [{}], writeConcern: { w: 0 } })).finding).toMatchObject({
      command: 'insert',
      collection: 'users',
      reason: 'writeConcern w: 0',
    });
    expect(inspectMessage(opQuery({ $query: { delete: 'sessions', deletes: [], writeConcern: { w: 0 } } })).finding).toMatchObject({ command: 'delete' });
    expect(inspectMessage(opQuery({ insert: 'users', documents: [{}], writeConcern: { w: 1 } })).finding).toBeUndefined();
    expect(inspectMessage(opQuery({ isMaster: 1, client: { application: { name: 'stemdeck-media' } } }))).toEqual({ handshakeApp: 'stemdeck-media' });
    const legacyInsert = Buffer.alloc(32);
    legacyInsert.writeInt32LE(32, 0);
    legacyInsert.writeInt32LE(2002, 12);
    expect(inspectMessage(legacyInsert).finding).toMatchObject({ reason: 'legacy write opcode 2002' });
  });

  it('sign-in, session touch and logout, the expiry sweep, upload and stem updates send none', async () => {
    // The stack's processes reach the database through the guard (scripts/test.mjs); so does this test.
    expect(process.env.MONGO_GUARD_RECORD).toBeTruthy();
    const connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
    try {
      const sessions = connection.collection('sessions');
      const agent = await signIn('demo', 'demo');
      expect((await agent.fetch('/api/auth/user')).status).toBe(200); // touches the session

      const live = await listen(agent);
      const uploaded = await upload(agent, makeClip('unacknowledged-writes.wav', 2));
      expect(uploaded.status).toBe(201);
      const projectId = ((await uploaded.json()) as { project: { id: string } }).project.id;
      await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === projectId, 60_000);
      live.close();
      const stems = (await (await agent.fetch(`/api/projects/${projectId}/stems`)).json()) as Array<{ id: string }>;
      const put = await agent.fetch(`/api/stems/${stems[0]!.id}`, {
        method: 'PUT',
        headers: { ...CSRF, 'content-type': 'application/json' },
        body: JSON.stringify({ volume: -3, muted: true }),
      });
      expect(put.status).toBe(200);

      await sessions.insertOne({ _id: 'unacknowledged-spec-expired' as never, session: {}, expires: new Date(Date.now() - 1000) });
      await until('the sweep removes the expired session', async () => (await sessions.countDocuments({ _id: 'unacknowledged-spec-expired' as never })) === 0, 15_000);

      expect((await agent.fetch('/api/logout')).status).toBe(302); // destroys the session
      expect(recorded()).toEqual([]);
    } finally {
      await connection.close();
    }
  }, 120_000);
});
