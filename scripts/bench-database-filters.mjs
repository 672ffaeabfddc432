#!/usr/bin/env node
// What a lookup by id costs the local database (FerretDB 1.24 on SQLite) with the filter shapes the services
// use, as the collection grows: `npm run bench:database` (BENCH_DB_SIZES=160,1000,4000, BENCH_DB_ROUNDS=200).
//
// FerretDB hands a filter to SQLite only when `_id` is its one key; with any other key beside it (an owner, an
// expiry) it decodes every document of the collection in Go to test each one. The services therefore look
// owned documents up by `_id` alone and compare the owner themselves (findOwnedById, SessionDocumentStore).
// This prints both shapes, so the difference stays measured. A scratch FerretDB on a free loopback port and a
// temporary folder; stops by itself.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepare, ROOT } from './stack.mjs';

/** mongoose, loaded once prepare() has installed the packages (a fresh clone has none). */
let mongoose;

const SIZES = (process.env.BENCH_DB_SIZES ?? '160,1000,4000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_DB_ROUNDS ?? 200);
const WRITERS = (process.env.BENCH_DB_WRITERS ?? '1,8,40').split(',').map(Number);
const WRITES_PER_WRITER = Number(process.env.BENCH_DB_WRITES ?? 100);

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

async function connectWithin(uri, ms) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await mongoose.connect(uri, { serverSelectionTimeoutMS: 1000 });
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The p-th percentile (0–100) of ascending `sorted`. */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/**
 * Stem changes from `writers` clients at once, each changing its own stems one after another (the load's
 * PUTs): SQLite takes one write at a time, so what matters here is how long a change waits for the others.
 */
async function concurrentChanges(stems, size, writers) {
  const latencies = [];
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < WRITES_PER_WRITER; i++) {
        const { _id } = stemOf((w * 7919 + i * 31) % size);
        const began = process.hrtime.bigint();
        await stems.findOneAndUpdate({ _id }, { $set: { volume: -(i % 24) }, $inc: { rev: 1 } }, { returnDocument: 'after' });
        latencies.push(Number(process.hrtime.bigint() - began) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  latencies.sort((a, b) => a - b);
  return { writers, perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies.at(-1) };
}

/** Milliseconds per call, the median of five batches of ROUNDS / 5 after a warm-up. */
async function timePerCall(call) {
  for (let i = 0; i < 20; i++) await call(i);
  const batch = Math.max(1, Math.round(ROUNDS / 5));
  const batches = [];
  for (let b = 0; b < 5; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) await call(b * batch + i);
    batches.push(Number(process.hrtime.bigint() - start) / 1e6 / batch);
  }
  return batches.sort((a, b) => a - b)[2];
}

const stemOf = (i) => ({
  _id: `p${i >> 2}-fast-${['vocals', 'drums', 'bass', 'other'][i & 3]}`,
  ownerId: `owner-${i >> 2}`,
  projectId: `p${i >> 2}`,
  engine: 'fast',
  type: ['vocals', 'drums', 'bass', 'other'][i & 3],
  objectKey: `stems/p${i >> 2}/fast/${i & 3}.flac`,
  volume: 0,
  muted: false,
  soloed: false,
  rev: 0,
  createdAt: new Date(),
});

const sessionOf = (i) => ({
  _id: `session-${i}-${'x'.repeat(24)}`,
  session: { cookie: { originalMaxAge: 6e8, httpOnly: true, path: '/' }, user: { id: `owner-${i}`, name: 'A user', email: `user-${i}@example.test` } },
  expires: new Date(Date.now() + 6e8),
  lastModified: new Date(),
});

async function main() {
  await prepare({ build: false });
  ({ default: mongoose } = await import('mongoose'));
  const dir = mkdtempSync(join(tmpdir(), 'stemdeck-db-bench-'));
  const port = await freePort();
  const debugPort = await freePort();
  const ferretdb = spawn(
    join(ROOT, '.tools', 'bin', 'ferretdb'),
    ['--handler=sqlite', `--sqlite-url=file:${dir}/`, `--state-dir=${dir}`, `--listen-addr=127.0.0.1:${port}`, `--debug-addr=127.0.0.1:${debugPort}`, '--telemetry=disable', '--log-level=error'],
    { stdio: 'ignore' },
  );
  try {
    await connectWithin(`mongodb://127.0.0.1:${port}/bench`, 30_000);
    const db = mongoose.connection.db;
    const rows = [];
    for (const size of SIZES) {
      const stems = db.collection('stems');
      const sessions = db.collection('sessions');
      await stems.deleteMany({});
      await sessions.deleteMany({});
      await stems.insertMany(Array.from({ length: size }, (_, i) => stemOf(i)));
      await sessions.insertMany(Array.from({ length: size }, (_, i) => sessionOf(i)));
      const stem = (i) => stemOf((i * 7919) % size);
      const session = (i) => sessionOf((i * 7919) % size);
      const measure = async (what, shape, call) => rows.push({ size, what, shape, ms: await timePerCall(call) });
      await measure('stem read', '{_id, ownerId}', (i) => stems.findOne({ _id: stem(i)._id, ownerId: stem(i).ownerId }));
      await measure('stem read', '{_id}', (i) => stems.findOne({ _id: stem(i)._id }));
      await measure('stem change (findAndModify)', '{_id, ownerId}', (i) =>
        stems.findOneAndUpdate({ _id: stem(i)._id, ownerId: stem(i).ownerId }, { $set: { volume: -(i % 24) }, $inc: { rev: 1 } }, { returnDocument: 'after' }),
      );
      await measure('stem change (findAndModify)', '{_id}', (i) => stems.findOneAndUpdate({ _id: stem(i)._id }, { $set: { volume: -(i % 24) }, $inc: { rev: 1 } }, { returnDocument: 'after' }));
      // The shape of a running separation's progress write (about once a second per job): an updateOne with no
      // answer read, measured on the stems collection as a stand-in for the jobs one (documents of about that size).
      await measure('progress write (updateOne)', '{_id, ownerId}', (i) => stems.updateOne({ _id: stem(i)._id, ownerId: stem(i).ownerId }, { $set: { volume: -(i % 24) } }));
      await measure('progress write (updateOne)', '{_id}', (i) => stems.updateOne({ _id: stem(i)._id }, { $set: { volume: -(i % 24) } }));
      await measure('session read', "{_id, $or: expiry} (connect-mongo's)", (i) =>
        sessions.findOne({ _id: session(i)._id, $or: [{ expires: { $exists: false } }, { expires: { $gt: new Date() } }] }),
      );
      await measure('session read', '{_id}', (i) => sessions.findOne({ _id: session(i)._id }));
    }
    const concurrent = [];
    const size = SIZES.at(-1);
    for (const writers of WRITERS) concurrent.push({ size, ...(await concurrentChanges(db.collection('stems'), size, writers)) });
    process.stdout.write(`\nFerretDB 1.24 on SQLite, one client, ${ROUNDS} calls per figure (median of 5 batches), ms per call:\n`);
    process.stdout.write(`${'documents'.padEnd(10)} ${'what'.padEnd(28)} ${'filter'.padEnd(38)} ms\n`);
    for (const row of rows) process.stdout.write(`${String(row.size).padEnd(10)} ${row.what.padEnd(28)} ${row.shape.padEnd(38)} ${row.ms.toFixed(2)}\n`);
    process.stdout.write(`\nStem changes (findAndModify by _id) from several clients at once, ${WRITES_PER_WRITER} each, over ${size} documents:\n`);
    process.stdout.write(`${'clients'.padEnd(8)} ${'changes/s'.padEnd(10)} ms p50 / p95 / p99 / max\n`);
    for (const row of concurrent) process.stdout.write(`${String(row.writers).padEnd(8)} ${row.perSecond.toFixed(0).padEnd(10)} ${[row.p50, row.p95, row.p99, row.max].map((ms) => ms.toFixed(1)).join(' / ')}\n`);
    process.stdout.write(`${JSON.stringify({ rounds: ROUNDS, rows, concurrent })}\n`);
  } finally {
    await mongoose.disconnect().catch(() => undefined);
    ferretdb.kill('SIGTERM');
    await new Promise((resolve) => ferretdb.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
