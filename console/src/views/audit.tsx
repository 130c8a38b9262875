/** The namespace's audit log (needs the admin scope), filtered by app, action and time. */
import { must, type Session } from '../api.js';
import { when, instant } from '../format.js';
import { go, useLoad } from '../hooks.js';
import { ErrorBox, Pager, Table, TimeRange, Choice } from '../parts/ui.js';

const LIMIT = 50;
const ACTIONS = [
  'JOB_CREATE',
  'JOB_UPDATE',
  'JOB_DELETE',
  'JOB_PAUSE',
  'JOB_RESUME',
  'JOB_TRIGGER',
  'JOB_BACKFILL',
  'INSTANCE_CANCEL',
  'TASK_CANCEL',
  'CRONTAB_IMPORT',
  'CLIENT_CREATE',
  'CLIENT_UPDATE',
  'CLIENT_DISABLE',
  'CLIENT_ROTATE_SECRET',
  'CALLBACK_REGISTER',
  'CALLBACK_DELETE',
  'CALLBACK_REDELIVER',
  'CALLBACK_REDELIVER_HOST',
] as const;

export function AuditView(props: { s: Session; app: string; query: URLSearchParams }) {
  const { s } = props;
  if (!s.admin) return <p>The audit log needs the admin scope; {s.appId} does not have it.</p>;
  return <AuditTable {...props} />;
}

function AuditTable({ s, app, query }: { s: Session; app: string; query: URLSearchParams }) {
  const action = query.get('action') ?? '';
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const rows = useLoad(
    () =>
      must(
        s.api.GET('/api/audit', {
          params: {
            query: {
              appId: app || undefined,
              action: (action || undefined) as (typeof ACTIONS)[number] | undefined,
              from: instant(from),
              to: instant(to),
              offset,
              limit: LIMIT,
            },
          },
        }),
      ),
    [query.toString(), app],
  );
  const filter = (e: Event) => {
    e.preventDefault();
    const d = new FormData(e.target as HTMLFormElement);
    go('/audit', Object.fromEntries(['action', 'from', 'to'].map((k) => [k, String(d.get(k) ?? '')])));
  };
  return (
    <section>
      <h1>Audit log</h1>
      <form class="filters" onSubmit={filter}>
        <Choice name="action" label="action" value={action} any="any action" options={ACTIONS} />
        <TimeRange from={from} to={to} />
        <button type="submit">Filter</button>
      </form>
      <ErrorBox error={rows.error} />
      {rows.data && (
        <>
          <Table id="audit" head={['When', 'App', 'Action', 'Target', 'Change']}>
            {rows.data.items.map((r) => (
              <tr>
                <td>{when(r.createdAt)}</td>
                <td>{r.appId}</td>
                <td>{r.action}</td>
                <td>
                  {r.targetType} {r.targetId}
                </td>
                <td>
                  <details>
                    <summary>before / after</summary>
                    <pre>{JSON.stringify({ before: r.before, after: r.after }, null, 2)}</pre>
                  </details>
                </td>
              </tr>
            ))}
          </Table>
          <Pager
            offset={offset}
            limit={LIMIT}
            total={rows.data.total}
            shown={rows.data.items.length}
            onPage={(o) => go('/audit', { action, from, to, offset: o })}
          />
        </>
      )}
    </section>
  );
}
