import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { CSRF } from '../support/env';
import { listen, makeClip } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

/** The stack's trace viewer (Zipkin), set by scripts/test.mjs. */
const VIEWER = process.env.STEMDECK_TRACE_VIEWER_URL ?? 'http://127.0.0.1:19411/zipkin/';
const viewerApi = (path: string) => new URL(`/api/v2/${path}`, VIEWER).toString();

/** A span as Zipkin's v2 API gives it (names are lower-cased by Zipkin). */
interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  kind?: 'CLIENT' | 'SERVER' | 'PRODUCER' | 'CONSUMER';
  duration?: number;
  localEndpoint: { serviceName: string };
  tags?: Record<string, string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The viewer's copy of a trace, polled until `complete` says every span the test needs has arrived. */
async function traceFromViewer(traceId: string, complete: (spans: ZipkinSpan[]) => boolean, timeoutMs = 20_000): Promise<ZipkinSpan[]> {
  const deadline = Date.now() + timeoutMs;
  let spans: ZipkinSpan[] = [];
  let lastStatus = 0;
  for (;;) {
    const response = await fetch(viewerApi(`trace/${traceId}`));
    lastStatus = response.status;
    if (response.ok) spans = (await response.json()) as ZipkinSpan[];
    if (complete(spans)) return spans;
    if (Date.now() > deadline) {
      const seen = [...new Set(spans.map((s) => `${s.localEndpoint.serviceName}: ${s.name}`))].sort();
      const ids = new Set(spans.map((s) => s.id));
      const orphans = spans.filter((s) => s.parentId && !ids.has(s.parentId)).map((s) => `${s.localEndpoint.serviceName}: ${s.name} (parent ${s.parentId})`);
      throw new Error(`trace ${traceId} incomplete in the viewer (last answer ${lastStatus}); spans seen:\n${seen.join('\n')}\nspans whose parent is not in it:\n${orphans.join('\n')}`);
    }
    await sleep(500);
  }
}

/** An upload as the panels send it, continuing the test's trace (W3C traceparent). */
async function uploadInTrace(agent: SignedInAgent, path: string, traceparent: string): Promise<Response> {
  const form = new FormData();
  form.append('audio', await openAsBlob(path), path.split('/').pop());
  return agent.fetch('/api/upload', { method: 'POST', headers: { ...CSRF, traceparent }, body: form });
}

const MEDIA = 'stemdeck-media';
const GATEWAY = 'stemdeck-gateway';
const named = (spans: ZipkinSpan[], service: string, name: string) => spans.filter((s) => s.localEndpoint.serviceName === service && s.name === name);

describe('the trace viewer', () => {
  let demo: SignedInAgent;

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
  });

  it("holds one upload's whole trace: gateway → NATS → media (ingest, analysis, separation phases, storage) → events back to the gateway", async () => {
    const user = (await (await demo.fetch('/api/auth/user')).json()) as { id: string; email: string | null; firstName: string | null; lastName: string | null };
    const fileName = `trace-${randomBytes(4).toString('hex')}.wav`;
    const clip = makeClip(fileName, 12);
    const live = await listen(demo);
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const response = await uploadInTrace(demo, clip, `00-${traceId}-${callerSpanId}-01`);
    expect(response.status).toBe(201);
    const projectId = ((await response.json()) as { project: { id: string } }).project.id;
    await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === projectId, 60_000);
    live.close();

    // The gateway relays the ready event last: the trace is complete once that relay's span is in.
    const relayedReady = (spans: ZipkinSpan[]) =>
      named(spans, GATEWAY, 'stemdeck.media.events.> process').find((s) => s.tags?.['stemdeck.event.type'] === 'stems_ready');
    // Spans reach the viewer in batches from five processes, a parent often after its children (it ends
    // later): the trace is read again until every span's parent is in it too (or it times out, naming them).
    const parentsIn = (found: ZipkinSpan[]) => {
      const ids = new Set(found.map((s) => s.id));
      return found.every((s) => s.parentId === callerSpanId || ids.has(s.parentId ?? '(none)'));
    };
    const spans = await traceFromViewer(traceId, (found) => Boolean(relayedReady(found)) && named(found, MEDIA, 'media.analysis').length > 0 && parentsIn(found));
    const byId = new Map(spans.map((s) => [s.id, s]));

    // Every span hangs off another span of this trace, except the gateway's first, whose parent is this test.
    for (const span of spans) {
      if (span.parentId === callerSpanId) expect(span).toMatchObject({ localEndpoint: { serviceName: GATEWAY }, kind: 'SERVER' });
      else expect(byId.has(span.parentId ?? '(none)')).toBe(true);
    }
    const root = spans.filter((s) => s.parentId === callerSpanId);
    expect(root).toHaveLength(1);
    expect(root[0]!.tags?.['http.target'] ?? root[0]!.tags?.['url.path']).toBe('/api/upload');

    // The chain from the ready event's relay back to the upload request, nearest first.
    const ancestry = (span: ZipkinSpan): ZipkinSpan[] => {
      const chain = [span];
      for (let at = byId.get(span.parentId ?? ''); at; at = byId.get(at.parentId ?? '')) chain.push(at);
      return chain;
    };
    const chain = ancestry(relayedReady(spans)!).map((s) => `${s.localEndpoint.serviceName}: ${s.name}`);
    const expected = [
      `${GATEWAY}: stemdeck.media.events.> process`,
      `${MEDIA}: stemdeck.media.events publish`,
      `${MEDIA}: stemdeck.media.separation.jobs process`,
      `${MEDIA}: stemdeck.media.separation.jobs publish`,
      `${MEDIA}: stemdeck.media.uploads.ingest process`,
      `${GATEWAY}: stemdeck.media.uploads.ingest send`,
    ];
    expect(chain.filter((step) => expected.includes(step))).toEqual(expected);
    expect(chain.at(-1)).toBe(`${GATEWAY}: ${root[0]!.name}`);

    // The media steps of the upload, each under the step that ran it, with what an operator needs to read them.
    const one = (name: string) => {
      const found = named(spans, MEDIA, name);
      expect(found.length).toBeGreaterThan(0);
      return found[0]!;
    };
    const ingest = one('stemdeck.media.uploads.ingest process');
    const job = one('stemdeck.media.separation.jobs process');
    expect(ingest.tags).toMatchObject({ 'stemdeck.project.id': projectId });
    expect(job.tags).toMatchObject({ 'stemdeck.project.id': projectId, 'stemdeck.engine': 'fast', 'stemdeck.delivery.attempt': '1' });
    const check = one('media.ingest.check');
    expect(check.parentId).toBe(ingest.id);
    expect(Number(check.tags?.['stemdeck.bytes'])).toBeGreaterThan(12 * 44100 * 4);
    expect(Number(check.tags?.['stemdeck.audio.seconds'])).toBeCloseTo(12, 0);
    expect(one('media.ingest.project').parentId).toBe(ingest.id);
    for (const phase of ['media.separation.open', 'media.separation.first-seconds', 'media.separation.stream']) {
      expect(one(phase).parentId).toBe(job.id);
      expect(one(phase).tags).toMatchObject({ 'stemdeck.project.id': projectId, 'stemdeck.engine': 'fast' });
    }
    expect(Number(one('media.separation.stream').tags?.['stemdeck.audio.seconds'])).toBeCloseTo(12, 0);
    expect(Number(one('media.separation.stream').tags?.['stemdeck.bytes'])).toBeGreaterThan(0);
    expect(Number(one('media.analysis').tags?.['stemdeck.audio.seconds'])).toBeCloseTo(12, 0);
    expect(ancestry(one('media.analysis')).map((s) => s.id)).toContain(job.id);
    // Storage writes: the first seconds' four stems, then the whole four, each with its bytes.
    const writes = named(spans, MEDIA, 'media.storage.write');
    const phaseOf = (span: ZipkinSpan) => byId.get(span.parentId ?? '')?.name;
    for (const phase of ['media.separation.first-seconds', 'media.separation.stream']) {
      const stems = writes.filter((w) => phaseOf(w) === phase);
      expect(stems.map((w) => w.tags?.['stemdeck.stem.type']).sort()).toEqual(['bass', 'drums', 'other', 'vocals']);
      for (const write of stems) expect(Number(write.tags?.['stemdeck.bytes'])).toBeGreaterThan(1000);
    }
    for (const span of spans) expect(span.duration ?? 0).toBeGreaterThanOrEqual(0);
    expect((job.duration ?? 0) / 1000).toBeGreaterThan(0);

    // Found as an operator would: by the project id, in the viewer's search.
    const search = new URLSearchParams({ serviceName: MEDIA, annotationQuery: `stemdeck.project.id=${projectId}`, lookback: String(3_600_000), limit: '10' });
    const traces = (await (await fetch(`${viewerApi('traces')}?${search}`)).json()) as ZipkinSpan[][];
    expect(traces.map((t) => t[0]?.traceId)).toContain(traceId);

    // No personal data: not the user's email or name, not the file's name, no signed storage URL.
    const everything = JSON.stringify(spans);
    for (const secret of [user.email, user.firstName && user.lastName ? `${user.firstName} ${user.lastName}` : null, user.lastName, fileName, 'X-Amz-Signature', 'X-Amz-Credential']) {
      if (secret) expect(everything).not.toContain(secret);
    }
    expect(user.email).toBeTruthy();
  });
});
