// Exec probe for a NATS-only service (mounted at /probe by the chart): sends the service's health request
// (stemdeck.<service>.health, the request the gateway's /readyz sends) and exits 0 or 1.
//   node /probe/nats-health.js <service> live    any reply within the timeout: the service is answering
//   node /probe/nats-health.js <service> ready   a reply with status "ok": its database/storage checks pass
// The reply comes from any replica of the service (a NATS queue group), so this is a service-level check; a
// per-pod check needs the HTTP health port (healthCheck: http).
'use strict';
const { connect, JSONCodec } = require(require.resolve('nats', { paths: [process.cwd(), '/app'] }));

const [service, mode = 'ready'] = process.argv.slice(2);
const timeoutMs = Number(process.env.PROBE_TIMEOUT_MS || 4000);
if (!service || !['live', 'ready'].includes(mode)) {
  process.stderr.write('usage: nats-health.js <service> live|ready\n');
  process.exit(2);
}

async function main() {
  const nc = await connect({ servers: process.env.NATS_URL || 'nats://127.0.0.1:4222', timeout: timeoutMs, name: `probe-${service}` });
  try {
    const codec = JSONCodec();
    // The services' NATS transport (NestJS) wraps requests as {pattern, data, id} and replies as {response, err, id}.
    const subject = `stemdeck.${service}.health`;
    const message = await nc.request(subject, codec.encode({ pattern: subject, data: {}, id: `probe-${Date.now()}` }), { timeout: timeoutMs });
    const reply = codec.decode(message.data);
    const health = reply && typeof reply === 'object' && 'response' in reply ? reply.response : reply;
    if (mode === 'live') return reply && !reply.err ? 0 : 1;
    if (health && health.status === 'ok') return 0;
    process.stderr.write(`${service} is not ready: ${JSON.stringify(health && health.checks ? health.checks : reply)}\n`);
    return 1;
  } finally {
    await nc.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${service} health request failed: ${error.message}\n`);
    process.exit(1);
  },
);
