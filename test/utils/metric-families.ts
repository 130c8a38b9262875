import { MetricsService } from '../../src/modules/observability/index.js';

/** The metric families the product registers (name → prom-client type). */
export function registeredMetrics(): Map<string, string> {
  const metrics = new MetricsService();
  return new Map(metrics.registry.getMetricsAsArray().map((m) => [m.name, String(m.type)]));
}

/** `tickwheel_*` series named in a PromQL text, reduced to their family (histogram _bucket/_sum/_count). */
export function metricFamilies(promql: string, known: Map<string, string>): string[] {
  return [...promql.matchAll(/\btickwheel_[a-z0-9_]+/g)].map(([name]) => {
    const base = name.replace(/_(bucket|sum|count)$/, '');
    return known.get(base) === 'histogram' ? base : name;
  });
}

/** A Grafana dashboard as far as the checks read it: panels (rows may nest theirs) and their PromQL targets. */
export interface Dashboard {
  uid: string;
  panels: DashboardPanel[];
}

/** One panel; a row panel carries its own `panels`. */
export interface DashboardPanel {
  title: string;
  targets?: Array<{ expr?: string }>;
  panels?: DashboardPanel[];
}

/** Every panel of `dash`, those inside rows included. */
export function allPanels(dash: Dashboard): DashboardPanel[] {
  return dash.panels.flatMap((p) => [p, ...allPanels({ uid: dash.uid, panels: p.panels ?? [] })]);
}
