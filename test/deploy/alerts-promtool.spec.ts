import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { allPanels, type Dashboard, metricFamilies, registeredMetrics } from '../utils/metric-families.js';

const RULES = 'deploy/helm/tickwheel/files/alerts.yml';
const TESTS = 'test/deploy/alerts.test.yml';
const DASHBOARD = 'docker/grafana/dashboards/tickwheel.json';

/** Grafana's interval variables, replaced by a duration Prometheus accepts so the query parses on its own. */
const GRAFANA_VARIABLES: Array<[RegExp, string]> = [
  [/\$__rate_interval\b/g, '5m'],
  [/\$__interval\b/g, '1m'],
  [/\$__range\b/g, '1h'],
];

interface AlertTest {
  alertname: string;
  exp_alerts?: unknown[];
}

interface TestGroup {
  name: string;
  input_series: Array<{ series: string }>;
  alert_rule_test?: AlertTest[];
}

/** Runs promtool in the checkout; `ok` is false when it is missing or exits non-zero. */
function promtool(...args: string[]): { ok: boolean; output: string } {
  const run = spawnSync('promtool', args, { cwd: process.cwd(), encoding: 'utf8', timeout: 60_000 });
  const output = run.error ? `promtool: ${run.error.message}` : `${run.stdout}${run.stderr}`;
  return { ok: run.status === 0, output };
}

/** The alert rules: alert name → expression. */
function alertRules(): Map<string, string> {
  const doc = load(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
  return new Map(doc.groups.flatMap((g) => g.rules).map((r) => [r.alert, r.expr]));
}

const available = promtool('--version').ok;
if (!available && !process.env.CI)
  console.warn(
    `promtool not found: the promtool checks of ${RULES}, ${TESTS} and the dashboard queries are SKIPPED. ` +
      'Install it (Debian/Ubuntu: apt-get install prometheus, which ships /usr/bin/promtool; or a Prometheus ' +
      'release archive) to run them; in CI (CI set) a missing promtool fails.',
  );
/** With promtool, or in CI (where its absence must fail); skipped elsewhere. */
const withPromtool = available || process.env.CI ? it : it.skip;

/**
 * The alert rules and the dashboard, checked by Prometheus's own parser and rule engine (docs/observability.md "How
 * the alerts are tested"): `promtool check rules` on the rules, `promtool test rules` on their unit tests, each
 * alert with a case where it fires and one where it does not, and every dashboard query parsed as a recording rule.
 */
describe('alert rules and dashboard queries (promtool)', () => {
  const rules = alertRules();
  const known = registeredMetrics();

  withPromtool('should find promtool', () => {
    expect(available).toBe(true);
  });

  withPromtool('should pass promtool check rules on the alert rules', () => {
    const { ok, output } = promtool('check', 'rules', RULES);
    expect({ ok, output }).toEqual({ ok: true, output: expect.stringContaining(`SUCCESS: ${rules.size} rules found`) });
  });

  withPromtool("should pass the rules' unit tests (promtool test rules)", () => {
    const { ok, output } = promtool('test', 'rules', TESTS);
    expect({ ok, output }).toEqual({ ok: true, output: expect.stringContaining('SUCCESS') });
  });

  it("should test every alert firing and not firing, each case fed the alert's own metrics", () => {
    const groups = (load(readFileSync(TESTS, 'utf8')) as { tests: TestGroup[] }).tests;
    const firing = new Set<string>();
    const quiet = new Set<string>();
    for (const group of groups) {
      const fed = new Set(group.input_series.flatMap((s) => metricFamilies(s.series.split('{')[0], known)));
      for (const t of group.alert_rule_test ?? []) {
        expect({ test: group.name, alert: t.alertname, inRules: rules.has(t.alertname) }).toMatchObject({
          inRules: true,
        });
        if ((t.exp_alerts ?? []).length > 0) firing.add(t.alertname);
        else {
          // A quiet case without the alert's metrics proves nothing (absent() aside, which fires on no input).
          const own = metricFamilies(rules.get(t.alertname) as string, known);
          expect({ test: group.name, alert: t.alertname, fed: own.some((m) => fed.has(m)) }).toMatchObject({
            fed: true,
          });
          quiet.add(t.alertname);
        }
      }
    }
    const all = [...rules.keys()].sort();
    expect({ firing: [...firing].sort(), quiet: [...quiet].sort() }).toEqual({ firing: all, quiet: all });
  });

  describe('the dashboard', () => {
    const dash = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
    // Each query's rule is named after its panel (titles are unique), so promtool's error names the panel.
    const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '_');
    const queries = allPanels(dash).flatMap((p) =>
      (p.targets ?? []).flatMap((t, j) =>
        t.expr ? [{ panel: p.title, record: `dashboard:${slug(p.title)}:${j}`, expr: t.expr }] : [],
      ),
    );

    it('should have queries, naming only registered metrics', () => {
      expect(queries.length).toBeGreaterThanOrEqual(20);
      for (const q of queries) {
        const names = metricFamilies(q.expr, known);
        expect({ panel: q.panel, names: names.length > 0 }).toEqual({ panel: q.panel, names: true });
        for (const m of names)
          expect({ panel: q.panel, metric: m, registered: known.has(m) }).toMatchObject({ registered: true });
      }
    });

    withPromtool('should have every query parse (promtool check rules, as recording rules)', () => {
      const dir = mkdtempSync(join(tmpdir(), 'tw-dashboard-rules-'));
      try {
        const recorded = queries.map((q) => ({
          record: q.record,
          expr: GRAFANA_VARIABLES.reduce((e, [v, d]) => e.replace(v, d), q.expr),
        }));
        const file = join(dir, 'dashboard.rules.yml');
        writeFileSync(file, dump({ groups: [{ name: 'dashboard', rules: recorded }] }));
        const { ok, output } = promtool('check', 'rules', file);
        expect({ ok, output }).toEqual({
          ok: true,
          output: expect.stringContaining(`SUCCESS: ${queries.length} rules found`),
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
