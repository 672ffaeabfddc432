import { metricsRegistry } from '@stemdeck/platform';
import { dashboardMetricNames, metricNamesInExpr, readDashboard } from '../support/prometheus';

/** The sample names a registered family exposes: a histogram's _bucket, _sum and _count. */
async function registeredSampleNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const family of await metricsRegistry.getMetricsAsJSON()) {
    if (family.type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${family.name}${suffix}`);
    else names.add(family.name);
  }
  return names;
}

describe('the Grafana dashboard (deploy/grafana/stemdeck-dashboard.json)', () => {
  const dashboard = readDashboard();

  it('finds the metric names in PromQL, not its functions, labels, ranges or keywords', () => {
    expect(
      metricNamesInExpr('histogram_quantile(0.95, sum by (le, route) (rate(stemdeck_http_request_duration_seconds_bucket{route!~"x_y"}[$__rate_interval])))'),
    ).toEqual(['stemdeck_http_request_duration_seconds_bucket']);
    expect(metricNamesInExpr('sum(a_total{job=~"$job"}) / on (job) group_left sum without (instance) (b_count offset 5m) > bool 0')).toEqual(['a_total', 'b_count']);
  });

  it('reads only metrics the processes register (a misspelled name fails here before the stack does)', async () => {
    const registered = await registeredSampleNames();
    const names = dashboardMetricNames(dashboard);
    expect(names.size).toBeGreaterThanOrEqual(12);
    expect([...names.keys()].filter((name) => !registered.has(name))).toEqual([]);
    // The check can fail: one letter off is reported.
    const misspelled = dashboardMetricNames(JSON.parse(JSON.stringify(dashboard).replace('stemdeck_websocket_connections', 'stemdeck_websocket_conections')));
    expect([...misspelled.keys()].filter((name) => !registered.has(name))).toEqual(['stemdeck_websocket_conections']);
  });

  it('has a panel for every family, a Prometheus data source variable and p50/p95/p99 latency', () => {
    const names = [...dashboardMetricNames(dashboard).keys()];
    for (const family of ['stemdeck_http_requests_total', 'stemdeck_http_request_duration_seconds_bucket', 'stemdeck_websocket_connections', 'stemdeck_jetstream_pending_messages', 'stemdeck_jetstream_redelivered_messages', 'stemdeck_jetstream_redeliveries_total', 'stemdeck_job_duration_seconds_bucket', 'stemdeck_storage_written_bytes_total']) {
      expect(names).toContain(family);
    }
    expect(dashboard.templating?.list[0]).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const exprs = JSON.stringify(dashboard);
    for (const q of ['0.5', '0.95', '0.99']) expect(exprs).toContain(`histogram_quantile(${q}, sum by (le, route)`);
  });
});
