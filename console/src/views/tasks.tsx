/** Tasks: find one by requestId, or list the recent ones by status, handler and time. */
import { must, type Session } from '../api.js';
import { between, duration, when, instant } from '../format.js';
import { go, REFRESH_MS, useLoad } from '../hooks.js';
import { instanceHref } from './overview.js';
import { ErrorBox, Pager, Progress, Status, Table, TimeRange, Choice } from '../parts/ui.js';

const LIMIT = 50;
const STATUSES = ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING', 'SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'] as const;
type TaskStatus = (typeof STATUSES)[number];

export function TasksView({ s, app, query }: { s: Session; app: string; query: URLSearchParams }) {
  const f = {
    status: query.get('status') ?? '',
    handler: query.get('handler') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
  };
  const offset = Number(query.get('offset') ?? 0) || 0;
  const list = useLoad(
    () =>
      must(
        s.api.GET('/api/tasks', {
          params: {
            query: {
              status: (f.status || undefined) as TaskStatus | undefined,
              handler: f.handler || undefined,
              from: instant(f.from),
              to: instant(f.to),
              appId: app || undefined,
              offset,
              limit: LIMIT,
            },
          },
        }),
      ),
    [query.toString(), app],
    REFRESH_MS,
  );
  const find = (e: Event) => {
    e.preventDefault();
    const id = String(new FormData(e.target as HTMLFormElement).get('requestId')).trim();
    if (id) go(`/tasks/${encodeURIComponent(id)}`, { appId: app });
  };
  const filter = (e: Event) => {
    e.preventDefault();
    const d = new FormData(e.target as HTMLFormElement);
    go('/tasks', Object.fromEntries(['status', 'handler', 'from', 'to'].map((k) => [k, String(d.get(k) ?? '')])));
  };
  return (
    <section>
      <h1>Tasks</h1>
      <form class="filters" onSubmit={find} role="search" aria-label="find a task">
        <input name="requestId" placeholder="requestId" maxLength={128} aria-label="requestId" />
        <button type="submit">Find</button>
      </form>
      <form class="filters" onSubmit={filter} aria-label="filter tasks">
        <Choice name="status" label="status" value={f.status} any="any status" options={STATUSES} />
        <input name="handler" value={f.handler} placeholder="handler" maxLength={128} aria-label="handler" />
        <TimeRange from={f.from} to={f.to} />
        <button type="submit">Filter</button>
      </form>
      <ErrorBox error={list.error} />
      {list.data && (
        <>
          <Table id="tasks" head={['requestId', 'Handler', 'Status', 'Submitted', 'Took', 'Progress', 'Error']}>
            {list.data.items.map((t) => (
              <tr>
                <td>
                  <a href={instanceHref({ ...t, jobId: null })}>{t.requestId}</a>
                </td>
                <td>{t.handler}</td>
                <td>
                  <Status value={t.status} />
                </td>
                <td>{when(t.createdAt)}</td>
                <td>{duration(between(t.startedAt, t.finishedAt))}</td>
                <td>
                  <Progress value={t.progress} />
                </td>
                <td class="error-text" title={t.error ?? undefined}>
                  <div class="clamp">{t.error}</div>
                </td>
              </tr>
            ))}
          </Table>
          <Pager
            offset={offset}
            limit={LIMIT}
            total={list.data.total}
            shown={list.data.items.length}
            onPage={(o) => go('/tasks', { ...f, offset: o })}
          />
        </>
      )}
    </section>
  );
}
