import {
  countStorageWrite,
  jetstreamPending,
  jetstreamRedelivered,
  metricsRegistry,
  objectKind,
  setMetricsProcess,
  statusClass,
  storageWrittenBytes,
  watchWorkQueue,
} from './metrics';
import { startMetricsServer } from './metrics-server';

const valueOf = async (metric: { get(): Promise<{ values: Array<{ labels: object; value: number }> }> }, labels: object) =>
  (await metric.get()).values.find((entry) => JSON.stringify(entry.labels) === JSON.stringify(labels))?.value;

describe('metrics', () => {
  it('names every family with the stemdeck_ prefix and base units, counters ending in _total', async () => {
    const names = (await metricsRegistry.getMetricsAsJSON()).map((metric) => metric.name).filter((name) => name.startsWith('stemdeck_'));
    expect(names.sort()).toEqual([
      'stemdeck_http_request_duration_seconds',
      'stemdeck_http_requests_total',
      'stemdeck_jetstream_ack_pending_messages',
      'stemdeck_jetstream_pending_messages',
      'stemdeck_jetstream_redelivered_messages',
      'stemdeck_jetstream_redeliveries_total',
      'stemdeck_job_duration_seconds',
      'stemdeck_media_read_cache_reads_total',
      'stemdeck_storage_written_bytes_total',
      'stemdeck_websocket_connections',
      'stemdeck_websocket_messages_total',
    ]);
  });

  it('labels storage keys by the kind of object, never by an id', () => {
    expect(objectKind('users/u-1/projects/p-9/original')).toBe('original');
    expect(objectKind('users/u-1/projects/p-9/audio.flac')).toBe('audio');
    expect(objectKind('users/u-1/projects/p-9/stems/fast/vocals.flac')).toBe('stems');
    expect(objectKind('users/u-1/projects/p-9/masters/j-1/master.wav')).toBe('masters');
    expect(objectKind('users/u-1/projects/p-9/enhanced/j-1/vocals.flac')).toBe('enhanced');
    expect(objectKind('users/u-1/projects/p-9/videos/j-2/video.mp4')).toBe('videos');
    expect(objectKind('users/u-1/projects/p-9/exports/e-1/Song.zip')).toBe('exports');
    expect(objectKind('users/u-1/projects/p-9/p-9-secret')).toBe('other');
    expect(objectKind('models/hybrid.onnx')).toBe('other');
  });

  it('counts bytes written by process and kind', async () => {
    setMetricsProcess('media');
    const before = (await valueOf(storageWrittenBytes, { process: 'media', kind: 'stems' })) ?? 0;
    countStorageWrite('users/u/projects/p/stems/fast/drums.flac', 1234);
    countStorageWrite('users/u/projects/p/stems/fast/bass.flac', 0);
    expect(await valueOf(storageWrittenBytes, { process: 'media', kind: 'stems' })).toBe(before + 1234);
  });

  it('gives status classes', () => {
    expect([200, 204, 302, 404, 413, 500, 503].map(statusClass)).toEqual(['2xx', '2xx', '3xx', '4xx', '4xx', '5xx', '5xx']);
  });

  it('reads each watched work queue at scrape time and leaves out one that does not answer', async () => {
    let pending = 3;
    const stopA = watchWorkQueue(async () => ({ stream: 'A', consumer: 'a', pending, ackPending: 1, redelivered: 2 }));
    const stopB = watchWorkQueue(async () => Promise.reject(new Error('no responders')));
    expect(await valueOf(jetstreamPending, { stream: 'A', consumer: 'a' })).toBe(3);
    pending = 0;
    // The gauges of one scrape share one read; the next scrape reads again.
    expect(await valueOf(jetstreamPending, { stream: 'A', consumer: 'a' })).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await valueOf(jetstreamPending, { stream: 'A', consumer: 'a' })).toBe(0);
    expect(await valueOf(jetstreamRedelivered, { stream: 'A', consumer: 'a' })).toBe(2);
    expect((await jetstreamPending.get()).values).toHaveLength(1);
    stopA();
    stopB();
    expect((await jetstreamPending.get()).values).toHaveLength(0);
  });

  it('serves /metrics on a port of its own and nothing else there', async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE stemdeck_http_requests_total counter');
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
