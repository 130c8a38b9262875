import {
  type JobInstance,
  newJobInstance,
  ReconcileInstances,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { type DbKind, type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

const T = 1_800_000_000_000;
const AGING_MS = 10_000;

/**
 * The reconciler's page of forgotten PENDING rows (docs/dispatch.md "Priorities") comes in the node queues' rank
 * order, `due_at − priority × PRIORITY_AGING_MS`, on both databases: higher priority first, and a row that has waited
 * long enough ahead of newer higher work.
 */
describe.each<DbKind>(['mysql', 'sqlite'])('forgotten PENDING rows in rank order (%s)', (kind) => {
  const ns = uniqueNamespace('int-rank');
  let db: MetadataDb;

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
  });

  afterAll(async () => {
    await db?.close();
  });

  const row = (name: string, priority: number, dueAt: number, appId = 'int'): JobInstance =>
    newJobInstance(
      { namespace: ns, appId, handler: 'h', fireTime: dueAt, triggerSource: TriggerSource.API, dueAt, priority },
      dueAt,
    );

  it('should read higher priorities first, a long wait ahead of newer higher work, and leave out held apps', async () => {
    const rows = {
      agedLow: row('agedLow', 1, T - 100_000), // rank T − 110,000: waited past (5 − 1) × aging
      low: row('low', 1, T), // T − 10,000
      high: row('high', 5, T + 1000), // T − 49,000
      normal: row('normal', 3, T + 1000), // T − 29,000
      held: row('held', 5, T, 'held-app'),
      future: row('future', 5, T + 60_000), // not due
    };
    await db.instances.fires.insertIgnore(db.ds.manager, Object.values(rows));
    const byId = new Map(Object.entries(rows).map(([name, r]) => [r.id, name]));
    const sut = new ReconcileInstances(db.ds);
    const names = (got: JobInstance[]) => got.map((r) => byId.get(r.id));

    const page = await sut.findPendingDue(ns, T + 5000, 10, AGING_MS, ['held-app']);
    expect(names(page)).toEqual(['agedLow', 'high', 'normal', 'low']);
    expect(page.map((r) => r.priority)).toEqual([1, 5, 3, 1]);
    expect(names(await sut.findPendingDue(ns, T + 5000, 2, AGING_MS))).toEqual(['agedLow', 'held']);
  });
});
