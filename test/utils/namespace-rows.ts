import { DataSource } from 'typeorm';

/** The tables a request can change, each as `id → the row's JSON`. */
export type NamespaceRows = Record<
  | 'job_definition'
  | 'job_instance'
  | 'job_attempt'
  | 'audit_log'
  | 'api_client'
  | 'callback_registration'
  | 'callback_delivery',
  Record<string, string>
>;

/** What changed in one table between two {@link NamespaceRows}: ids of rows added, removed and changed. */
export interface TableDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * Every row of `namespace` in the tables an API request can write: job definitions, instances, their attempts and
 * callback deliveries, audit rows, and the API clients and their callback registrations (shared by every
 * namespace: those whose app id starts with `clientPrefix`, or all when it is undefined, for a database no other
 * test writes).
 */
export async function namespaceRows(ds: DataSource, namespace: string, clientPrefix?: string): Promise<NamespaceRows> {
  const byId = (rows: Array<Record<string, unknown>>, key = 'id') =>
    Object.fromEntries(rows.map((r) => [String(r[key]), JSON.stringify(r)]));
  const byApp = clientPrefix === undefined ? ['', []] : [' WHERE app_id LIKE ?', [`${clientPrefix}%`]];
  const [defs, instances, attempts, audit, clients, registrations, deliveries] = await Promise.all([
    ds.query('SELECT * FROM job_definition WHERE namespace = ?', [namespace]),
    ds.query('SELECT * FROM job_instance WHERE namespace = ?', [namespace]),
    ds.query('SELECT a.* FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ?', [
      namespace,
    ]),
    ds.query('SELECT * FROM audit_log WHERE namespace = ?', [namespace]),
    ds.query(`SELECT * FROM api_client${byApp[0]}`, byApp[1] as unknown[]),
    ds.query(`SELECT * FROM callback_registration${byApp[0]}`, byApp[1] as unknown[]),
    ds.query('SELECT d.* FROM callback_delivery d JOIN job_instance i ON i.id = d.instance_id WHERE i.namespace = ?', [
      namespace,
    ]),
  ]);
  const registrationKey = (rows: Array<Record<string, unknown>>) =>
    byId(
      rows.map((r) => ({ ...r, key: `${String(r.app_id)}/${String(r.handler)}` })),
      'key',
    );
  return {
    job_definition: byId(defs),
    job_instance: byId(instances),
    job_attempt: byId(attempts),
    audit_log: byId(audit),
    api_client: byId(clients, 'app_id'),
    callback_registration: registrationKey(registrations),
    callback_delivery: byId(deliveries),
  };
}

/** Per table, the rows `after` added, removed or changed relative to `before`; tables without a difference are left out. */
export function rowsDiff(before: NamespaceRows, after: NamespaceRows): Partial<Record<keyof NamespaceRows, TableDiff>> {
  const out: Partial<Record<keyof NamespaceRows, TableDiff>> = {};
  for (const table of Object.keys(before) as Array<keyof NamespaceRows>) {
    const [b, a] = [before[table], after[table]];
    const diff: TableDiff = {
      added: Object.keys(a).filter((id) => !(id in b)),
      removed: Object.keys(b).filter((id) => !(id in a)),
      changed: Object.keys(a).filter((id) => id in b && a[id] !== b[id]),
    };
    if (diff.added.length + diff.removed.length + diff.changed.length > 0) out[table] = diff;
  }
  return out;
}

/** Anything that runs SQL (a TypeORM DataSource or QueryRunner). */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Deletes what a test left in `namespace`: its handler log lines, attempts, callback deliveries and instances, and its job definitions too when
 * `definitions` is set. Does nothing when `ds` is undefined (a setup that failed before connecting).
 */
export async function deleteNamespaceRows(
  ds: Queryable | undefined,
  namespace: string,
  opts: { definitions?: boolean } = {},
): Promise<void> {
  if (!ds) return;
  await ds.query('DELETE FROM job_log WHERE namespace = ?', [namespace]);
  await ds.query('DELETE a FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ?', [
    namespace,
  ]);
  await ds.query(
    'DELETE d FROM callback_delivery d JOIN job_instance i ON i.id = d.instance_id WHERE i.namespace = ?',
    [namespace],
  );
  await ds.query('DELETE FROM job_instance WHERE namespace = ?', [namespace]);
  if (opts.definitions) await ds.query('DELETE FROM job_definition WHERE namespace = ?', [namespace]);
}
