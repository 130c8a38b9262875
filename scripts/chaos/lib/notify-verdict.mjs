// The chaos check's notification rule and its judgement (docs/notifications.md, docs/guarantees.md): one
// FINAL_FAILURE rule with quietMs 0 and a webhook to the run's notify receiver; after the run, every instance that
// ended FAILED or TIMEOUT must be named by exactly one delivered message. Delivery is at least once: one message
// POSTed twice under one deliveryId is counted (redelivered), not failed. Pure reading; nothing is changed.

/** The rule's name. */
export const NOTIFY_RULE = 'chaos-failures';

/** The body of `POST /api/notifications/rules` for a receiver at `url` (every failure its own stream's message). */
export const notifyRule = (url) => ({
  name: NOTIFY_RULE,
  kind: 'FINAL_FAILURE',
  quietMs: 0,
  channels: [{ type: 'webhook', url: `${url}/notify` }],
});

/**
 * Counts, in one statement (one read view), what is still on its way to the receiver: final events not yet
 * evaluated, messages of the rule still OPEN, and their deliveries still due. Zero means drained.
 * @returns {[string, unknown[]]} the SQL (one row, `c`) and its parameters
 */
export function notifyBacklog(namespace) {
  const sql = `SELECT
      (SELECT COUNT(*) FROM notification_event
        WHERE namespace = ? AND kind = 'INSTANCE_FINAL' AND processed_at IS NULL)
    + (SELECT COUNT(*) FROM notification WHERE namespace = ? AND rule_name = ? AND state = 'OPEN')
    + (SELECT COUNT(*) FROM notification_delivery d JOIN notification n ON n.id = d.notification_id
        WHERE d.namespace = ? AND n.rule_name = ? AND d.state IN ('PENDING', 'RETRYING')) AS c`;
  return [sql, [namespace, namespace, NOTIFY_RULE, namespace, NOTIFY_RULE]];
}

/**
 * Judges the notifications of the run. `notified`: failed instances named by a message the receiver answered 2xx;
 * `nfLost`: failed instances named by none, less the events of delivered messages beyond their stored samples
 * (`nfUnsampled`, counted by the message's `count` only); `nfDoubled`: instances named by more than one message
 * (distinct notificationId); `nfUndelivered`: messages not SENT or deliveries not DELIVERED; `nfStray`: a named
 * instance that did not fail; `nfBadSig`: POSTs the receiver refused; `nfRedelivered`: extra 2xx POSTs of one
 * deliveryId (at-least-once, allowed); `nfRetried`: deliveries that took more than one try.
 * @param {import('mysql2/promise').Pool} pool
 * @param {{namespace: string, receipts: import('./notify-receiver.mjs').NotifyReceipt[]}} run
 * @returns {Promise<{ok: boolean, counts: Record<string, number>, examples: string[]}>}
 */
export async function judgeNotifications(pool, { namespace, receipts }) {
  const [failedRows] = await pool.query(
    "SELECT id, request_id, status FROM job_instance WHERE namespace = ? AND status IN ('FAILED', 'TIMEOUT')",
    [namespace],
  );
  const [msgs] = await pool.query(
    `SELECT n.id, n.state, n.event_count, n.events, d.id AS delivery_id, d.state AS dstate, d.attempts, d.last_error
       FROM notification n LEFT JOIN notification_delivery d ON d.notification_id = n.id
      WHERE n.namespace = ? AND n.rule_name = ?`,
    [namespace, NOTIFY_RULE],
  );
  const c = {
    expected: failedRows.length,
    notified: 0,
    messages: msgs.length,
    nfLost: 0,
    nfDoubled: 0,
    nfUnsampled: 0,
    nfUndelivered: 0,
    nfStray: 0,
    nfBadSig: 0,
    nfRedelivered: 0,
    nfRetried: 0,
  };
  const examples = [];
  const note = (s) => examples.length < 12 && examples.push(s);
  const failed = new Map(failedRows.map((r) => [r.id, r]));
  /** instance id -> the messages naming it, from the stored samples and from what the receiver took */
  const messagesOf = new Map();
  const name = (instanceId, notificationId) => {
    const s = messagesOf.get(instanceId) ?? new Set();
    s.add(notificationId);
    messagesOf.set(instanceId, s);
  };
  const ok2xx = new Map(); // deliveryId -> 2xx receipts
  for (const r of receipts) {
    if (!r.valid) {
      c.nfBadSig++;
      note(`notification POST ${r.deliveryId || '(no id)'} refused by the receiver: ${r.reason}`);
      continue;
    }
    if (r.answered < 200 || r.answered >= 300) continue;
    ok2xx.set(r.deliveryId, [...(ok2xx.get(r.deliveryId) ?? []), r]);
  }
  const notified = new Set();
  for (const m of msgs) {
    const samples = (typeof m.events === 'string' ? JSON.parse(m.events) : (m.events ?? [])).map((e) => e.instanceId);
    for (const id of samples) name(id, m.id);
    if (m.state !== 'SENT' || m.dstate !== 'DELIVERED') {
      c.nfUndelivered++;
      note(`message ${m.id} is ${m.state}, delivery ${m.delivery_id ?? '(none)'} ${m.dstate ?? ''}: ${m.last_error}`);
      continue;
    }
    if (m.attempts > 1) c.nfRetried++;
    const got = ok2xx.get(m.delivery_id) ?? [];
    if (got.length === 0) {
      note(`delivery ${m.delivery_id} of message ${m.id} is DELIVERED but the receiver never answered it 2xx`);
      continue;
    }
    c.nfRedelivered += got.length - 1;
    c.nfUnsampled += Math.max(0, Number(m.event_count) - samples.length);
    for (const r of got)
      for (const id of r.instanceIds) {
        name(id, r.notificationId);
        notified.add(id);
      }
  }
  for (const [id, ids] of messagesOf) {
    if (!failed.has(id)) {
      c.nfStray++;
      note(`a message names instance ${id}, which did not end FAILED or TIMEOUT`);
    } else if (ids.size > 1) {
      c.nfDoubled++;
      note(`instance ${id} (${failed.get(id).request_id}) is named by ${ids.size} messages: ${[...ids].join(', ')}`);
    }
  }
  let unnamed = 0;
  for (const r of failedRows) {
    if (notified.has(r.id)) c.notified++;
    else if (unnamed++ < 3) note(`instance ${r.id} (${r.request_id}) ended ${r.status}; no delivered message names it`);
  }
  c.nfLost = Math.max(0, unnamed - c.nfUnsampled);
  const ok = c.nfLost + c.nfDoubled + c.nfUndelivered + c.nfStray + c.nfBadSig === 0;
  return { ok, counts: c, examples };
}
