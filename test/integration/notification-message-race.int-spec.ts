import { newId } from '../../src/common/index.js';
import {
  type MessageEvent,
  Notification,
  NotificationMessageRepository,
  openKeyOf,
  UnitOfWork,
} from '../../src/modules/metadata/index.js';
import { type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

const NOW = Date.UTC(2026, 11, 5, 12, 0, 0);

/**
 * An event joins its stream's OPEN message while a closer takes that message (docs/notifications.md "Quiet period
 * and grouping", "Delivery"), on MariaDB at its default REPEATABLE READ: the evaluator's transaction has already
 * read the message OPEN when the closer's commit makes it SENT. The event must land in a new message, or in the one
 * another pod opened meanwhile, never be dropped (the chaos check lost one failure this way: "changed three times
 * during one add"). SQLite runs one writer at a time, so the race cannot happen there.
 */
describe('notification message add racing a closer (mysql)', () => {
  const ns = uniqueNamespace('int-nmsg');
  let db: MetadataDb;
  let repo: NotificationMessageRepository;
  let uow: UnitOfWork;

  const event = (i: number): MessageEvent => ({
    namespace: ns,
    appId: 'app-race',
    ruleId: null,
    ruleName: 'failures',
    kind: 'FINAL_FAILURE',
    groupKey: 'http',
    title: `task t${i} ended FAILED`,
    channels: [],
    quietMs: 0,
    sample: { at: new Date(NOW + i).toISOString(), instanceId: `i-${i}`, status: 'FAILED' },
    now: NOW + i,
  });
  const openOne = async (): Promise<string> => {
    const { id, opened } = await uow.run((em) => repo.add(em, event(0)));
    expect(opened).toBe(true);
    return id;
  };
  /** The closer's write (`NotificationOutboxRepository` close): the message leaves its stream, on its own connection. */
  const close = (id: string) =>
    db.ds.query("UPDATE notification SET state = 'SENT', open_key = NULL, sent_at = ? WHERE id = ?", [NOW, id]);
  const rows = () =>
    db.ds.getRepository(Notification).find({ where: { namespace: ns }, order: { createdAt: 'ASC', id: 'ASC' } });

  beforeAll(async () => {
    db = await openMetadataDb('mysql', ns);
    repo = new NotificationMessageRepository(db.ds);
    uow = UnitOfWork.for(db.ds);
  });
  afterEach(() => db.ds.query('DELETE FROM notification WHERE namespace = ?', [ns]));
  afterAll(() => db.close());

  it('opens a new message when the one it read OPEN was closed before its write', async () => {
    const first = await openOne();
    const added = await uow.run(async (em) => {
      // The evaluator's view: the stream's message is OPEN (this read fixes the transaction's snapshot).
      expect(await em.query('SELECT id FROM notification WHERE open_key = ?', [openKeyOf(event(1))])).toHaveLength(1);
      await close(first);
      return repo.add(em, event(1));
    });
    expect(added.opened).toBe(true);
    const [closed, next] = await rows();
    expect(closed).toMatchObject({ id: first, state: 'SENT', eventCount: 1 });
    expect(next).toMatchObject({ id: added.id, state: 'OPEN', eventCount: 1 });
    expect(next.events.map((e) => e.instanceId)).toEqual(['i-1']);
  });

  it('joins the message another pod opened after the closer took the one it had read', async () => {
    const first = await openOne();
    const other = newId();
    const added = await uow.run(async (em) => {
      expect(await em.query('SELECT id FROM notification WHERE open_key = ?', [openKeyOf(event(1))])).toHaveLength(1);
      await close(first);
      const [row] = await rows();
      await db.ds.getRepository(Notification).insert({ ...row, id: other, state: 'OPEN', sentAt: null, ...fresh(2) });
      return repo.add(em, event(1));
    });
    expect(added).toEqual({ id: other, opened: false });
    const byId = new Map((await rows()).map((r) => [r.id, r]));
    expect(byId.get(first)).toMatchObject({ state: 'SENT', eventCount: 1 });
    expect(byId.get(other)).toMatchObject({ state: 'OPEN', eventCount: 2 });
    expect(byId.get(other)?.events.map((e) => e.instanceId)).toEqual(['i-2', 'i-1']);
  });

  /** The columns of a message another pod opened for `event(i)`. */
  function fresh(i: number): Partial<Notification> {
    const e = event(i);
    return {
      openKey: openKeyOf(e),
      events: [e.sample],
      eventCount: 1,
      firstEventAt: e.now,
      lastEventAt: e.now,
      sendAt: e.now,
      createdAt: e.now,
      updatedAt: e.now,
    };
  }
});
