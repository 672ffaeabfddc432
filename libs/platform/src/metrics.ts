import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of one process: one registry with Node's default process metrics (CPU, memory, event
 * loop lag, GC) and the studio's own families below. Labels hold bounded vocabularies only (route templates,
 * status classes, job types, engines, stream names): never a user id, project id or raw path.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** The content type of the text `metricsText()` returns. */
export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;

/** The scrape answer: every family in Prometheus's text format. */
export const metricsText = (): Promise<string> => metricsRegistry.metrics();

/** Which process writes to object storage (gateway, media, jobs, export): set once at boot. */
let processName = 'unknown';
export function setMetricsProcess(name: string): void {
  processName = name;
}

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new Counter({
  name: 'stemdeck_http_requests_total',
  help: 'HTTP requests answered by the gateway, by method, route template and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'stemdeck_http_request_duration_seconds',
  help: 'Time from the request arriving to the answer finishing, by method, route template and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

export const websocketConnections = new Gauge({
  name: 'stemdeck_websocket_connections',
  help: 'Open signed-in /ws connections on this gateway replica',
  registers: [metricsRegistry],
});

export const websocketMessages = new Counter({
  name: 'stemdeck_websocket_messages_total',
  help: '/ws messages, by direction (received from browsers, sent to them)',
  labelNames: ['direction'] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'stemdeck_job_duration_seconds',
  help: 'Time one delivery of a queued job took, by job type, engine (or provider) and outcome',
  labelNames: ['type', 'engine', 'outcome'] as const,
  buckets: [0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1200],
  registers: [metricsRegistry],
});

export const jetstreamRedeliveries = new Counter({
  name: 'stemdeck_jetstream_redeliveries_total',
  help: 'Deliveries of a work queue message after its first one, seen by this worker',
  labelNames: ['stream', 'consumer'] as const,
  registers: [metricsRegistry],
});

export const storageWrittenBytes = new Counter({
  name: 'stemdeck_storage_written_bytes_total',
  help: 'Bytes written to object storage, by process and kind of object',
  labelNames: ['process', 'kind'] as const,
  registers: [metricsRegistry],
});

export const mediaReadCacheReads = new Counter({
  name: 'stemdeck_media_read_cache_reads_total',
  help: "Owner reads media answered from memory (hit), by joining a query already under way (shared) or from the database (miss), by scope",
  labelNames: ['scope', 'result'] as const,
  registers: [metricsRegistry],
});

/** A work queue's consumer state as JetStream reports it (read at scrape time). */
export interface WorkQueueState {
  stream: string;
  consumer: string;
  /** Messages not yet delivered (the backlog). */
  pending: number;
  /** Messages delivered but not yet acknowledged. */
  ackPending: number;
  /** Messages delivered more than once and not yet acknowledged. */
  redelivered: number;
}

type WorkQueueStateSource = () => Promise<WorkQueueState>;
const workQueueSources = new Set<WorkQueueStateSource>();

/** Registers a work queue whose consumer state every scrape reads; returns how to stop reading it. */
export function watchWorkQueue(source: WorkQueueStateSource): () => void {
  workQueueSources.add(source);
  sharedRead = undefined;
  return () => {
    workQueueSources.delete(source);
    sharedRead = undefined;
  };
}

/** Reads every registered queue's state; a queue that does not answer (NATS away) is left out of this scrape. */
async function readWorkQueueStates(): Promise<WorkQueueState[]> {
  const states = await Promise.all([...workQueueSources].map((source) => source().catch(() => undefined)));
  return states.filter((state): state is WorkQueueState => state !== undefined);
}

/** One read per scrape: the three queue gauges collect within moments of each other and share it. */
const SHARED_READ_MS = 500;
let sharedRead: { at: number; states: Promise<WorkQueueState[]> } | undefined;
function workQueueStates(): Promise<WorkQueueState[]> {
  const now = performance.now();
  if (!sharedRead || now - sharedRead.at > SHARED_READ_MS) sharedRead = { at: now, states: readWorkQueueStates() };
  return sharedRead.states;
}

function queueGauge(name: string, help: string, value: (state: WorkQueueState) => number): Gauge<'stream' | 'consumer'> {
  return new Gauge({
    name,
    help,
    labelNames: ['stream', 'consumer'] as const,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const state of await workQueueStates()) this.set({ stream: state.stream, consumer: state.consumer }, value(state));
    },
  });
}

export const jetstreamPending = queueGauge('stemdeck_jetstream_pending_messages', 'Work queue messages waiting for a worker (consumer num_pending)', (s) => s.pending);
export const jetstreamAckPending = queueGauge(
  'stemdeck_jetstream_ack_pending_messages',
  'Work queue messages delivered and not yet acknowledged (consumer num_ack_pending)',
  (s) => s.ackPending,
);
export const jetstreamRedelivered = queueGauge(
  'stemdeck_jetstream_redelivered_messages',
  'Work queue messages delivered more than once and not yet acknowledged (consumer num_redelivered)',
  (s) => s.redelivered,
);

/** The class of an HTTP status for the `status_class` label: 2xx, 3xx, 4xx, 5xx. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** Kinds of stored object, from the folder a key lies in under its project (anything else is `other`). */
const OBJECT_KINDS: Record<string, string> = {
  original: 'original',
  'audio.flac': 'audio',
  stems: 'stems',
  masters: 'masters',
  enhanced: 'enhanced',
  videos: 'videos',
  exports: 'exports',
};

/** The `kind` label of a storage key: `users/<owner>/projects/<project>/<kind>/…`; ids never reach the label. */
export function objectKind(key: string): string {
  const parts = key.split('/');
  if (parts[0] !== 'users' || parts[2] !== 'projects' || parts.length < 5) return 'other';
  return OBJECT_KINDS[parts[4]] ?? 'other';
}

/** Counts bytes written to object storage by this process. */
export function countStorageWrite(key: string, bytes: number): void {
  if (bytes > 0) storageWrittenBytes.inc({ process: processName, kind: objectKind(key) }, bytes);
}
