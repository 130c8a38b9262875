import { Logger } from '@nestjs/common';
import { type AppConfig } from '../../src/config/index.js';
import { HandlerLogWriter } from '../../src/modules/execution/handler-log/handler-log-writer.js';
import { JobLogRepository, type StoredLogLine, UnitOfWork } from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { type DbKind, type MetadataDb, openMetadataDb, runningInstance } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

/**
 * The handler log writer on both engines: lines kept in order with their attempt, node, time and level; the
 * bounds hold in the table (oldest dropped behind one marker line, across several flushes); a flush that fails
 * loses its lines (counted) without throwing, and the next one works.
 */
describe.each<DbKind>(['sqlite', 'mysql'])('handler log writer (%s)', (kind) => {
  const ns = uniqueNamespace('int-log');
  let db: MetadataDb;
  let repo: JobLogRepository;
  let metrics: MetricsService;
  const quiet = new Logger('test');
  quiet.log = quiet.warn = quiet.error = () => undefined;

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
    repo = new JobLogRepository(db.ds);
  });
  afterAll(async () => {
    await db?.ds.query('DELETE FROM job_log WHERE namespace = ?', [ns]);
    await db?.close();
  });

  function writer(logMaxLines: number, logMaxBytes = 262_144): HandlerLogWriter {
    metrics = new MetricsService();
    const config = { namespace: ns, longTasks: { logMaxLines, logMaxBytes } } as AppConfig;
    const clock = { now: () => 1_000, schedule: () => () => undefined };
    return new HandlerLogWriter(repo, UnitOfWork.for(db.ds), metrics, config, clock);
  }

  async function open(w: HandlerLogWriter) {
    const id = await runningInstance(db, ns);
    const row = (await db.instances.reads.findById(id))!;
    return { id, row, log: w.open(row, quiet) };
  }

  const lines = (page: StoredLogLine[]) => page.map((l) => `${l.level} ${l.line}`);

  async function dropped(reason: string): Promise<number> {
    const m = await metrics.registry.getSingleMetric('tickwheel_handler_log_lines_dropped_total')?.get();
    return m?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
  }

  it('should keep every line with its attempt, node, time and level, in order', async () => {
    const w = writer(100);
    const { id, row, log } = await open(w);
    log.info('rows', 3, { a: 1 });
    log.warn('slow');
    log.error(new Error('boom').message);
    await w.ended(id, row.attempt);
    const page = await repo.page(id, 0, 10);
    expect(lines(page)).toEqual(['info rows 3 {"a":1}', 'warn slow', 'error boom']);
    expect(page.map((l) => [l.attempt, l.nodeId, l.at])).toEqual([
      [1, 'n-1', 1_000],
      [1, 'n-1', 1_000],
      [1, 'n-1', 1_000],
    ]);
    expect(page[1].id).toBeGreaterThan(page[0].id);
  });

  it('should keep the newest lines past the bound behind one marker, over several flushes', async () => {
    const w = writer(5);
    const { id, row, log } = await open(w);
    for (let i = 0; i < 4; i++) log.info(`l${i}`);
    await w.beforeApplicationShutdown(); // a periodic flush: l0..l3 stored
    for (let i = 4; i < 9; i++) log.info(`l${i}`);
    await w.beforeApplicationShutdown();
    for (let i = 9; i < 12; i++) log.info(`l${i}`);
    await w.ended(id, row.attempt);
    const page = await repo.page(id, 0, 100);
    expect(lines(page)).toEqual([
      'warn [tickwheel] 7 earlier line(s) of this attempt dropped (limits 5 lines, 262144 bytes per attempt)',
      ...['l7', 'l8', 'l9', 'l10', 'l11'].map((l) => `info ${l}`),
    ]);
    expect(await dropped('limit')).toBe(7);
  });

  it('should write a new first marker when retention removed the old one from a running attempt', async () => {
    const w = writer(3);
    const { id, row, log } = await open(w);
    for (let i = 0; i < 5; i++) log.info(`l${i}`);
    await w.beforeApplicationShutdown();
    const [marker, l2] = await repo.page(id, 0, 2);
    await db.ds.query('DELETE FROM job_log WHERE id IN (?, ?)', [marker.id, l2.id]); // as RETENTION_LOGS_MS would
    log.info('l5');
    log.info('l6');
    await w.ended(id, row.attempt);
    expect(lines(await repo.page(id, 0, 10))).toEqual([
      'warn [tickwheel] 4 earlier line(s) of this attempt dropped (limits 3 lines, 262144 bytes per attempt)',
      'info l5',
      'info l6',
    ]);
  });

  // Only on SQLite's own file: renaming the shared MariaDB table would break tests running beside this one.
  const onOwnFile = kind === 'sqlite' ? it : it.skip;

  onOwnFile('should not throw when a flush fails, count the lines lost, and write the next ones', async () => {
    const w = writer(100);
    const { id, row, log } = await open(w);
    await db.ds.query('ALTER TABLE job_log RENAME TO job_log_away');
    try {
      log.info('lost 1');
      log.info('lost 2');
      await expect(w.beforeApplicationShutdown()).resolves.toBeUndefined();
    } finally {
      await db.ds.query('ALTER TABLE job_log_away RENAME TO job_log');
    }
    expect(await dropped('flush_failed')).toBe(2);
    log.info('kept');
    await w.ended(id, row.attempt);
    expect(lines(await repo.page(id, 0, 10))).toEqual(['info kept']);
  });

  it('should write nothing with HANDLER_LOG_MAX_LINES 0 (stdout only)', async () => {
    const w = writer(0);
    const { id, row, log } = await open(w);
    log.info('stdout only');
    await w.ended(id, row.attempt);
    expect(await repo.page(id, 0, 10)).toEqual([]);
  });
});
