/** Tasks: find one by requestId, or list the recent ones by status, handler and time. */
import { must, type Session } from '../api.js';
import { between, duration, when } from '../format.js';
import { go, REFRESH_MS, useLoad } from '../hooks.js';
import { ErrorBox, Pager, Progress, Status } from '../parts/ui.js';

const LIMIT = 50;
const STATUSES = ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING', 'SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'] as const;
type TaskStatus = (typeof STATUSES)[number];

/** A datetime-local value as an ISO instant, or undefined. */
const instant = (v: string | null) => (v ? new Date(v).toISOString() : undefined);

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
    if (id) go(`/tasks/${encodeURIComponent(id)}`);
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
        <select name="status" value={f.status} aria-label="status">
          <option value="">any status</option>
          {STATUSES.map((st) => (
            <option value={st}>{st}</option>
          ))}
        </select>
        <input name="handler" value={f.handler} placeholder="handler" maxLength={128} aria-label="handler" />
        <label>
          From <input name="from" type="datetime-local" step={1} value={f.from} />
        </label>
        <label>
          To <input name="to" type="datetime-local" step={1} value={f.to} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorBox error={list.error} />
      {list.data && (
        <>
          <table id="tasks">
            <thead>
              <tr>
                <th>requestId</th>
                <th>Handler</th>
                <th>Status</th>
                <th>Submitted</th>
                <th>Took</th>
                <th>Progress</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((t) => (
                <tr>
                  <td>
                    <a href={`#/tasks/${encodeURIComponent(t.requestId)}`}>{t.requestId}</a>
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
                  <td class="error-text">{t.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
