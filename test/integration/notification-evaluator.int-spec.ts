import { jest } from '@jest/globals';
import {
  NotificationEventRepository,
  NotificationInstances,
  NotificationMessageRepository,
  NotificationRuleRepository,
  UnitOfWork,
} from '../../src/modules/metadata/index.js';
import { NotificationEvaluator } from '../../src/modules/notifications/index.js';
import { FakeClock } from '../fakes/fake-clock.js';
import { type DbKind, type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

jest.setTimeout(60_000);

const NOW = 1_800_000_000_000;

/**
 * The evaluator's pass (docs/notifications.md "Events"): final-state events of apps no rule applies to are marked in
 * one statement and yield nothing, a full batch asks for the next pass at once, and an event of an app with only the
 * built-in rule (a down callback host) still yields its message, once however often the scan wrote it.
 */
describe.each<DbKind>(['mysql', 'sqlite'])('notification evaluator (%s)', (kind) => {
  let db: MetadataDb;
  let ns: string;
  let evaluator: NotificationEvaluator;
  let events: NotificationEventRepository;

  beforeEach(async () => {
    ns = uniqueNamespace('nev');
    db = await openMetadataDb(kind, ns);
    events = new NotificationEventRepository(db.ds);
    const config = { namespace: ns, smtpConfigured: false, evalMs: 1000, scanMs: 1000, maxPerHour: 60 };
    evaluator = new NotificationEvaluator(
      events,
      new NotificationRuleRepository(db.ds),
      new NotificationMessageRepository(db.ds),
      new NotificationInstances(db.ds),
      UnitOfWork.for(db.ds),
      config,
      new FakeClock(NOW),
    );
  });
  afterEach(async () => {
    for (const t of ['notification_event', 'notification'])
      await db.ds.query(`DELETE FROM ${t} WHERE namespace = ?`, [ns]);
    await db.close();
  });

  it('should mark the final states of apps without rules in bulk and go on at once while batches are full', async () => {
    const finals = Array.from({ length: 450 }, (_, i) => ({
      namespace: ns,
      appId: 'quiet-app',
      kind: 'INSTANCE_FINAL',
      dedupKey: `final:i${i}`,
      instanceId: `i${i}`,
      data: { status: 'SUCCESS' },
      at: NOW,
    }));
    expect(await events.insert(finals, NOW)).toBe(450);
    expect([await evaluator.pass(), await evaluator.pass(), await evaluator.pass(), await evaluator.pass()]).toEqual([
      200, 200, 50, 0,
    ]);
    expect(await events.backlog(ns)).toBe(0);
    const [{ n }] = (await db.ds.query('SELECT COUNT(*) AS n FROM notification WHERE namespace = ?', [ns])) as {
      n: number | string;
    }[];
    expect(Number(n)).toBe(0);
  });

  it('should record a down host of an app with no rules under the built-in rule, once per episode', async () => {
    const down = {
      namespace: ns,
      appId: 'hosted-app',
      kind: 'HOST_DOWN',
      dedupKey: 'host:hosted-app:1:hooks.example.com:443',
      data: { host: 'hooks.example.com:443', failures: 3, lastError: 'HTTP 503', downSince: 1 },
      at: NOW,
    };
    expect(await events.insert([down, down], NOW)).toBe(1);
    expect(await evaluator.pass()).toBe(1);
    expect(await events.insert([down], NOW)).toBe(0);
    const rows = (await db.ds.query('SELECT rule_name, title, event_count FROM notification WHERE namespace = ?', [
      ns,
    ])) as { rule_name: string; title: string; event_count: number | string }[];
    expect(rows.map((r) => [r.rule_name, r.title, Number(r.event_count)])).toEqual([
      ['callback-host-failing', 'callbacks to hooks.example.com:443 are failing: 3 tries in a row failed', 1],
    ]);
  });
});
