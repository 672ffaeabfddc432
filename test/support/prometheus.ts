import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DASHBOARD_FILE = join(__dirname, '..', '..', 'deploy', 'grafana', 'stemdeck-dashboard.json');

/** Words of PromQL that are not metric names where they stand outside a function call. */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression reads: label matchers, ranges, grouping clauses, strings and numbers
 * removed, then every identifier that is not a function call or a keyword. Grafana's own variables
 * (`$__rate_interval`, `$job`) sit inside ranges and matchers, which are removed first.
 */
export function metricNamesInExpr(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names = new Set<string>();
  // Not after a digit: `5m` in `offset 5m` is a duration, `1e3` a number.
  for (const match of bare.matchAll(/(?<![A-Za-z0-9_:.])([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    if (match[2] || PROMQL_WORDS.has(match[1].toLowerCase())) continue;
    names.add(match[1]);
  }
  return [...names];
}

interface Dashboard {
  panels: Array<{ title?: string; targets?: Array<{ expr?: string }>; panels?: Dashboard['panels'] }>;
  templating?: { list: Array<{ definition?: string }> };
}

/** Every metric name the dashboard's panels and variables read, each with the panels that read it. */
export function dashboardMetricNames(dashboard: Dashboard): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const add = (name: string, where: string) => names.set(name, [...(names.get(name) ?? []), where]);
  const visit = (panels: Dashboard['panels']) => {
    for (const panel of panels) {
      for (const target of panel.targets ?? []) for (const name of metricNamesInExpr(target.expr ?? '')) add(name, panel.title ?? '');
      visit(panel.panels ?? []);
    }
  };
  visit(dashboard.panels);
  for (const variable of dashboard.templating?.list ?? []) {
    const labelValues = /label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,/.exec(variable.definition ?? '');
    if (labelValues) add(labelValues[1], 'variables');
  }
  return names;
}

export const readDashboard = (file = DASHBOARD_FILE): Dashboard => JSON.parse(readFileSync(file, 'utf8')) as Dashboard;

/** One sample of Prometheus's text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a scrape (comments and type lines skipped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The dashboard's names that none of the scrapes has a sample of, each with the panels that read it. */
export function missingNames(dashboard: Dashboard, samples: Sample[]): string[] {
  const scraped = new Set(samples.map((sample) => sample.name));
  return [...dashboardMetricNames(dashboard)].filter(([name]) => !scraped.has(name)).map(([name, panels]) => `${name} (${[...new Set(panels)].join(', ')})`);
}
