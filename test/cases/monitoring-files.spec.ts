import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { metricFamilies as families, registeredMetrics as registered } from '../utils/metric-families.js';

const DOCKER = join(process.cwd(), 'docker');

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/**
 * The monitoring files of docker/ (docs/observability.md: a Grafana dashboard and Prometheus alert rules) only name
 * metrics the product registers, and the dashboard shows every one of them: renaming a metric without
 * its panel or alert fails here, not on an operator's screen.
 */
describe('docker/ monitoring files', () => {
  const known = registered();
  // The product's own families; Node's default process_/nodejs_ metrics carry the prefix too.
  const ours = [...known.keys()].filter((n) => n.startsWith('tickwheel_') && !/^tickwheel_(process|nodejs)_/.test(n));

  it('should register the metrics the files are checked against', () => {
    expect(ours.length).toBeGreaterThanOrEqual(10);
  });

  it('should have alert rules that parse and name only registered metrics', () => {
    const doc = load(readFileSync(join(process.cwd(), 'deploy/helm/tickwheel/files/alerts.yml'), 'utf8')) as {
      groups: Array<{ name: string; rules: Rule[] }>;
    };
    const rules = doc.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'TickwheelNoLeader',
        'TickwheelTriggerLatenessHigh',
        'TickwheelQueueDepthHigh',
        'TickwheelCallbackHostDown',
        'TickwheelCallbackFailures',
        'TickwheelCallbackOutboxOld',
        'TickwheelTaskFailureRateHigh',
        'TickwheelExecutorHeartbeatStale',
        'TickwheelLeaderFlapping',
        'TickwheelDatabaseErrors',
        'TickwheelRedisErrors',
        'TickwheelApiErrorRatioHigh',
        'TickwheelApiLatencyHigh',
        'TickwheelTasksWaitingForHandler',
        'TickwheelJobFailing',
        'TickwheelClockSkew',
      ]),
    );
    for (const r of rules) {
      expect(r.expr).toMatch(/tickwheel_/);
      for (const f of families(r.expr, known))
        expect({ rule: r.alert, metric: f, registered: known.has(f) }).toEqual({
          rule: r.alert,
          metric: f,
          registered: true,
        });
      if (r.for !== undefined) expect(r.for).toMatch(/^\d+[smh]$/);
      expect(r.labels?.severity).toMatch(/^(warning|critical)$/);
      expect(r.annotations?.summary).toBeTruthy();
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('should have a dashboard that parses, names only registered metrics and shows every one of them', () => {
    const dash = JSON.parse(readFileSync(join(DOCKER, 'grafana/dashboards/tickwheel.json'), 'utf8')) as {
      uid: string;
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    expect(dash.uid).toBe('tickwheel');
    const named = new Set(dash.panels.flatMap((p) => p.targets.flatMap((t) => families(t.expr, known))));
    for (const f of named) expect({ metric: f, registered: known.has(f) }).toEqual({ metric: f, registered: true });
    expect(ours.filter((m) => !named.has(m))).toEqual([]);
    expect(new Set(dash.panels.map((p) => p.title)).size).toBe(dash.panels.length);
  });

  it('should scrape every Tickwheel service of the compose file and load the rules', () => {
    const prom = load(readFileSync(join(DOCKER, 'prometheus/prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }>;
    };
    const compose = load(readFileSync(join(DOCKER, 'compose.yaml'), 'utf8')) as {
      services: Record<string, { environment?: Record<string, string>; profiles?: string[] }>;
    };
    const tickwheel = Object.entries(compose.services)
      .filter(([, s]) => s.environment?.ROLES)
      .map(([name]) => `${name}:3000`);
    expect(prom.scrape_configs.flatMap((c) => c.static_configs.flatMap((s) => s.targets)).sort()).toEqual(
      tickwheel.sort(),
    );
    expect(prom.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(compose.services.prometheus.profiles).toEqual(['monitoring']);
    expect(compose.services.grafana.profiles).toEqual(['monitoring']);
  });
});
