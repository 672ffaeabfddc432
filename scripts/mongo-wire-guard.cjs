// A MongoDB wire-protocol proxy for the test stack that records every unacknowledged write. Every app
// process (and the tests) talk to the database through it; it forwards the bytes both ways untouched and
// reads the client→server messages on the side. An unacknowledged write is sent without waiting for its
// reply; FerretDB replies anyway, and that stray reply is then taken as the answer to the next command on
// the pooled connection (`BSON element "cursor" is missing`). So none may reach the database.
//
// CommonJS so that scripts/test.mjs and the jest specs (no ESM in jest here) load the same file.
'use strict';
const { appendFileSync } = require('node:fs');
const { createConnection, createServer } = require('node:net');
const { deserialize } = require('bson');

const OP_UPDATE = 2001;
const OP_INSERT = 2002;
const OP_QUERY = 2004;
const OP_DELETE = 2006;
const OP_COMPRESSED = 2012;
const OP_MSG = 2013;
const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;
const HANDSHAKES = new Set(['hello', 'ismaster', 'isMaster']);

function cstringEnd(buffer, start) {
  const end = buffer.indexOf(0, start);
  if (end < 0) throw new Error('unterminated cstring');
  return end;
}

/** The command document of an OP_MSG (its kind-0 section) with its flags. */
function readOpMsg(message) {
  const flags = message.readUInt32LE(16);
  const end = message.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let offset = 20;
  let body;
  while (offset < end) {
    const kind = message[offset];
    offset += 1;
    const size = message.readInt32LE(offset);
    if (kind === 0) body = deserialize(message.subarray(offset, offset + size));
    offset += size;
  }
  return { flags, body };
}

/** The query document of a legacy OP_QUERY (handshakes; old drivers' commands on `db.$cmd`). */
function readOpQuery(message) {
  const collectionEnd = cstringEnd(message, 20);
  const namespace = message.toString('utf8', 20, collectionEnd);
  const documentStart = collectionEnd + 1 + 8;
  const size = message.readInt32LE(documentStart);
  let body = deserialize(message.subarray(documentStart, documentStart + size));
  if (body && typeof body.$query === 'object') body = body.$query;
  return { namespace, body };
}

const isUnacknowledged = (writeConcern) =>
  writeConcern !== null && typeof writeConcern === 'object' && (writeConcern.w === 0 || writeConcern.w === '0');

/**
 * Inspects one whole client→server message. Answers `{handshakeApp}` for a handshake naming its client,
 * `{finding}` for an unacknowledged write, or `{}`.
 */
function inspectMessage(message) {
  const opCode = message.readInt32LE(12);
  if (opCode === OP_INSERT || opCode === OP_UPDATE || opCode === OP_DELETE) {
    // The legacy write opcodes have no reply at all: always unacknowledged.
    return { finding: { reason: `legacy write opcode ${opCode}`, command: String(opCode) } };
  }
  if (opCode === OP_COMPRESSED) {
    // No compressor is configured anywhere; a compressed message would hide its write concern.
    return { finding: { reason: 'compressed message (cannot be inspected)', command: String(message.readInt32LE(16)) } };
  }
  let body;
  let moreToCome = false;
  if (opCode === OP_MSG) {
    const read = readOpMsg(message);
    body = read.body;
    moreToCome = (read.flags & MORE_TO_COME) !== 0;
  } else if (opCode === OP_QUERY) {
    body = readOpQuery(message).body;
  } else {
    return {};
  }
  const command = body ? Object.keys(body)[0] : undefined;
  const result = {};
  if (command && HANDSHAKES.has(command) && body.client && body.client.application) result.handshakeApp = String(body.client.application.name);
  const writeConcern = body ? body.writeConcern : undefined;
  if (moreToCome || isUnacknowledged(writeConcern)) {
    result.finding = {
      reason: moreToCome ? 'moreToCome flag (no reply expected)' : 'writeConcern w: 0',
      command: command ?? '(none)',
      collection: command && typeof body[command] === 'string' ? body[command] : undefined,
      database: body && typeof body.$db === 'string' ? body.$db : undefined,
      writeConcern: writeConcern ?? null,
    };
  }
  return result;
}

/** Splits a byte stream into whole wire messages (each starts with its int32 length). */
class MessageFramer {
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.chunks = [];
    this.buffered = 0;
  }
  push(chunk) {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < 4) return;
      if (this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks)];
      const length = this.chunks[0].readInt32LE(0);
      if (length < 16) throw new Error(`bad message length ${length}`);
      if (this.buffered < length) return;
      const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.onMessage(all.subarray(0, length));
      const rest = all.subarray(length);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
    }
  }
}

/**
 * Starts the proxy on 127.0.0.1:`port` (0 = any free port) in front of `target` ({host, port}); each
 * unacknowledged write is appended to `recordFile` as one JSON line. Answers `{port, findings, close}`.
 */
function startMongoWireGuard({ port = 0, target, recordFile, log = (line) => process.stderr.write(`[mongo-wire-guard] ${line}\n`) }) {
  const findings = [];
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.host, port: target.port });
    sockets.add(client).add(upstream);
    const peer = `127.0.0.1:${client.remotePort}`;
    let app = '(no handshake yet)';
    let inspecting = true;
    const framer = new MessageFramer((message) => {
      const result = inspectMessage(message);
      if (result.handshakeApp) app = result.handshakeApp;
      if (result.finding) {
        const finding = { at: new Date().toISOString(), app, peer, ...result.finding };
        findings.push(finding);
        if (recordFile) appendFileSync(recordFile, `${JSON.stringify(finding)}\n`);
        log(`unacknowledged write from ${app} (${peer}): ${JSON.stringify(result.finding)}`);
      }
    });
    client.on('data', (chunk) => {
      if (!inspecting) return;
      try {
        framer.push(chunk);
      } catch (error) {
        // Forwarding goes on; this connection just is not inspected any more, and that is said.
        inspecting = false;
        log(`cannot read the wire from ${app} (${peer}), no longer inspected: ${error.message}`);
      }
    });
    client.pipe(upstream);
    upstream.pipe(client);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve({
        port: server.address().port,
        findings,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

module.exports = { startMongoWireGuard, inspectMessage, MessageFramer };
