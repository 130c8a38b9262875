import { MetricsService } from './metrics.service.js';

/** `label=value,...` of each series of `name` at 0 (a histogram: its _count samples). */
async function zeroSeries(metrics: MetricsService, name: string): Promise<string[]> {
  const family = await metrics.registry.getSingleMetric(name)?.get();
  const sample = String(family?.type) === 'histogram' ? `${name}_count` : name;
  return (family?.values ?? [])
    .filter((v) => v.value === 0 && ((v as { metricName?: string }).metricName ?? name) === sample)
    .map((v) =>
      Object.entries(v.labels)
        .map(([k, l]) => `${k}=${String(l)}`)
        .join(','),
    )
    .sort();
}

/**
 * Labelled counters start with a series at 0 for every label value the code can count (increase() and rate()
 * see no increase in a series' first sample). Cheap: one registry per case, no I/O.
 */
describe('MetricsService series at 0 from the start', () => {
  it.each([
    ['tickwheel_rows_quarantined_total', ['reason=CORRUPT_ROW']],
    ['tickwheel_lease_expiries_total', ['reason=LEASE_LOST', 'reason=NODE_LOST']],
    ['tickwheel_callback_deliveries_total', ['outcome=delivered', 'outcome=failed', 'outcome=retry']],
    ['tickwheel_instances_finished_total', ['status=CANCELLED', 'status=FAILED', 'status=SUCCESS', 'status=TIMEOUT']],
    ['tickwheel_misfires_total', ['policy=FIRE_ALL', 'policy=FIRE_ONCE_NOW', 'policy=SKIP']],
    ['tickwheel_progress_writes_total', ['outcome=failed', 'outcome=stale', 'outcome=stored']],
    ['tickwheel_handler_log_lines_dropped_total', ['reason=flush_failed', 'reason=limit']],
    [
      'tickwheel_retention_rows_removed_total',
      ['table=callback_delivery', 'table=idempotency_key', 'table=job_attempt', 'table=job_instance', 'table=job_log'],
    ],
    ['tickwheel_db_errors_total', ['kind=conflict', 'kind=connection', 'kind=other']],
    ['tickwheel_redis_errors_total', ['kind=command', 'kind=connection']],
    [
      'tickwheel_notification_deliveries_total',
      ['chat', 'email', 'webhook'].flatMap((c) =>
        ['delivered', 'failed', 'retry'].map((o) => `channel=${c},outcome=${o}`),
      ),
    ],
  ])('should export %s for each known label value at 0', async (name, expected) => {
    expect(await zeroSeries(new MetricsService(), name)).toEqual(expected);
  });

  it('should export no execution series until an executor names its handlers, then handler × outcome', async () => {
    const metrics = new MetricsService();
    const name = 'tickwheel_execution_duration_seconds';
    expect(await zeroSeries(metrics, name)).toEqual([]);
    metrics.zeroExecutions(['a', 'b']);
    const outcomes = ['CANCELLED', 'FAILED', 'HANDED_BACK', 'SUCCESS', 'TIMEOUT'];
    const expected = ['a', 'b'].flatMap((h) => outcomes.map((o) => `handler=${h},outcome=${o}`));
    expect(await zeroSeries(metrics, name)).toEqual(expected);
  });

  it('should count on top of the series at 0', async () => {
    const metrics = new MetricsService();
    metrics.rowsQuarantined.inc({ reason: 'CORRUPT_ROW' });
    const [value] = (await metrics.rowsQuarantined.get()).values;
    expect(value).toMatchObject({ labels: { reason: 'CORRUPT_ROW' }, value: 1 });
  });
});
