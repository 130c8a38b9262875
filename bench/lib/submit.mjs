// The submit side of the dispatch benchmark: signed POST /api/tasks one per task with a bounded number in
// flight, or POST /api/tasks/batch in chunks. Records every refusal instead of retrying, so a task that
// was not accepted counts as not submitted (and, if it has no row, as lost).

/**
 * Runs `worker(i)` for i in [0, n) with at most `inFlight` calls pending at once.
 * @param {number} n
 * @param {number} inFlight
 * @param {(i: number) => Promise<void>} worker
 */
async function pooled(n, inFlight, worker) {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(inFlight, n)) }, async () => {
    while (next < n) await worker(next++);
  });
  await Promise.all(lanes);
}

/**
 * Submits `tasks` one signed POST /api/tasks each, `inFlight` at a time.
 * @param {{submitTask: (t: object) => Promise<{status: number, body: any}>}} client TickwheelClient
 * @param {object[]} tasks bodies of POST /api/tasks
 * @param {number} inFlight
 * @returns {Promise<{accepted: number, refused: Array<{requestId: string, status: number|string, detail: string}>, requests: number}>}
 */
export async function submitSingle(client, tasks, inFlight) {
  let accepted = 0;
  const refused = [];
  await pooled(tasks.length, inFlight, async (i) => {
    try {
      const r = await client.submitTask(tasks[i]);
      if (r.status === 202) accepted++;
      else
        refused.push({ requestId: tasks[i].requestId, status: r.status, detail: JSON.stringify(r.body).slice(0, 200) });
    } catch (err) {
      refused.push({ requestId: tasks[i].requestId, status: 'network', detail: err.message });
    }
  });
  return { accepted, refused, requests: tasks.length };
}

/**
 * Submits `tasks` through POST /api/tasks/batch, `size` per request, `inFlight` requests at a time.
 * A refused request refuses all its tasks; an item with `error` refuses that task only.
 * @param {{submitTasks: (t: object[]) => Promise<{status: number, body: any}>}} client TickwheelClient
 * @returns {Promise<{accepted: number, refused: Array<{requestId: string, status: number|string, detail: string}>, requests: number, requestMs: number[]}>}
 */
export async function submitBatch(client, tasks, size, inFlight) {
  const chunks = [];
  for (let i = 0; i < tasks.length; i += size) chunks.push(tasks.slice(i, i + size));
  let accepted = 0;
  const refused = [];
  const requestMs = [];
  await pooled(chunks.length, inFlight, async (k) => {
    const chunk = chunks[k];
    const t = Date.now();
    try {
      const r = await client.submitTasks(chunk);
      requestMs.push(Date.now() - t);
      if (r.status !== 202) {
        for (const task of chunk)
          refused.push({ requestId: task.requestId, status: r.status, detail: JSON.stringify(r.body).slice(0, 200) });
        return;
      }
      r.body.results.forEach((item, j) => {
        if ('error' in item)
          refused.push({ requestId: chunk[j].requestId, status: item.error.status, detail: item.error.detail });
        else accepted++;
      });
    } catch (err) {
      for (const task of chunk) refused.push({ requestId: task.requestId, status: 'network', detail: err.message });
    }
  });
  return { accepted, refused, requests: chunks.length, requestMs };
}
