// The chaos check's judgement of callbacks (docs/callbacks.md, docs/guarantees.md): every final instance has one
// delivery row, every row was delivered and seen by the receiver with a valid signature, one deliveryId per
// instance, sent to the URL the most specific rule picks. Pure reading; nothing is changed.

/**
 * @param {import('mysql2/promise').Pool} pool
 * @param {{namespace: string, deliveries: import('../../../bench/lib/callback-receiver.mjs').Delivery[],
 *   expectedPath: (row: {request_id: string, job_code: string|null}) => string}} run `expectedPath` names the
 *   receiver path the instance's callback must go to (task URL, job URL or the app's default registration)
 * @returns {Promise<{ok: boolean, counts: Record<string, number>, examples: string[]}>}
 */
export async function judgeCallbacks(pool, { namespace, deliveries, expectedPath }) {
  const [rows] = await pool.query(
    `SELECT i.id, i.request_id, i.job_code, i.status, d.id AS delivery_id, d.state, d.url, d.attempts, d.last_error
       FROM job_instance i LEFT JOIN callback_delivery d ON d.instance_id = i.id WHERE i.namespace = ?`,
    [namespace],
  );
  const c = {
    expected: rows.length,
    delivered: 0,
    cbMissing: 0,
    cbFailed: 0,
    cbLost: 0,
    cbSplit: 0,
    cbBadSig: 0,
    cbWrongUrl: 0,
    cbWrongStatus: 0,
    cbDupSeen: 0,
    cbRetried: 0,
  };
  const examples = [];
  const note = (s) => examples.length < 12 && examples.push(s);
  const seen = new Map(); // deliveryId -> receipts answered 2xx
  const idsByInstance = new Map();
  for (const d of deliveries) {
    if (!d.valid) {
      c.cbBadSig++;
      note(`callback ${d.deliveryId || '(no id)'} refused by the receiver: ${d.reason ?? 'payload mismatch'}`);
      continue;
    }
    const ids = idsByInstance.get(d.instanceId) ?? new Set();
    ids.add(d.deliveryId);
    idsByInstance.set(d.instanceId, ids);
    if (d.answered >= 200 && d.answered < 300) seen.set(d.deliveryId, [...(seen.get(d.deliveryId) ?? []), d]);
  }
  for (const r of rows) {
    if (!r.delivery_id) {
      c.cbMissing++;
      note(`instance ${r.id} (${r.request_id}) ended ${r.status} without a callback delivery row`);
      continue;
    }
    if (r.attempts > 1) c.cbRetried++;
    if (r.state !== 'DELIVERED') {
      c.cbFailed++;
      note(`delivery ${r.delivery_id} of ${r.request_id} is ${r.state} after ${r.attempts} tries: ${r.last_error}`);
      continue;
    }
    const got = seen.get(r.delivery_id) ?? [];
    if (got.length === 0) {
      c.cbLost++;
      note(`delivery ${r.delivery_id} of ${r.request_id} is DELIVERED but the receiver never answered it 2xx`);
      continue;
    }
    c.delivered++;
    c.cbDupSeen += got.length - 1;
    if ((idsByInstance.get(r.id)?.size ?? 0) > 1) {
      c.cbSplit++;
      note(`instance ${r.id} was called back under ${idsByInstance.get(r.id).size} deliveryIds`);
    }
    const path = expectedPath(r);
    if (got.some((d) => d.path !== path)) {
      c.cbWrongUrl++;
      note(`delivery ${r.delivery_id} of ${r.request_id} went to ${got[0].path}, expected ${path}`);
    }
    if (got.some((d) => d.status !== r.status)) {
      c.cbWrongStatus++;
      note(`delivery ${r.delivery_id} said ${got[0].status}, the instance is ${r.status}`);
    }
  }
  const ok =
    c.cbMissing === 0 &&
    c.cbFailed === 0 &&
    c.cbLost === 0 &&
    c.cbSplit === 0 &&
    c.cbBadSig === 0 &&
    c.cbWrongUrl === 0 &&
    c.cbWrongStatus === 0;
  return { ok, counts: c, examples };
}
