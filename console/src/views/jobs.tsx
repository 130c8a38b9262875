/** Jobs: a searchable list paged on the server (50 a page), linking to each job's page. */
import { must, type Schemas, type Session } from '../api.js';
import { duration, scheduleWords, when } from '../format.js';
import { go, REFRESH_MS, useLoad } from '../hooks.js';
import { ErrorBox, Pager, Status, Table } from '../parts/ui.js';

const LIMIT = 50;

/** ENABLED, PAUSED or ERROR: what a job's schedule does now. */
export function jobState(j: { enabled: boolean; scheduleState: string }): string {
  return j.scheduleState === 'ERROR' ? 'ERROR' : j.enabled ? 'ENABLED' : 'PAUSED';
}

/** The href of a job's page; `appId` is kept so an admin's link names the owner. */
export const jobHref = (j: { id: string; appId: string }) => `#/jobs/${j.id}?appId=${encodeURIComponent(j.appId)}`;

export function JobsView({ s, app, query }: { s: Session; app: string; query: URLSearchParams }) {
  const q = query.get('q') ?? '';
  const enabled = query.get('enabled') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const list = useLoad(
    () =>
      must(
        s.api.GET('/api/jobs', {
          params: {
            query: {
              q: q || undefined,
              enabled: enabled === '' ? undefined : (enabled as 'true' | 'false'),
              appId: app || undefined,
              offset,
              limit: LIMIT,
            },
          },
        }),
      ),
    [q, enabled, offset, app],
    REFRESH_MS * 5,
  );
  const search = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    go('/jobs', { q: String(f.get('q')).trim(), enabled: String(f.get('enabled')) });
  };
  return (
    <section>
      <h1>Jobs</h1>
      <div class="toolbar">
        <form class="filters" onSubmit={search} role="search">
          <input
            name="q"
            type="search"
            value={q}
            placeholder="code, description or handler"
            maxLength={128}
            size={30}
          />
          <select name="enabled" value={enabled} aria-label="state">
            <option value="">any state</option>
            <option value="true">enabled</option>
            <option value="false">paused</option>
          </select>
          <button type="submit">Search</button>
        </form>
        <a class="button" href="#/jobs/new">
          New job
        </a>
        <a class="button" href="#/import">
          Import crontab
        </a>
      </div>
      <ErrorBox error={list.error} />
      {list.data && (
        <>
          <Table id="jobs" head={['Code', s.admin && 'App', 'State', 'Schedule', 'Next fire', 'Last run', 'Took']}>
            {list.data.items.map((j) => (
              <JobRow j={j} admin={s.admin} />
            ))}
          </Table>
          <Pager
            offset={offset}
            limit={LIMIT}
            total={list.data.total}
            shown={list.data.items.length}
            onPage={(o) => go('/jobs', { q, enabled, offset: o })}
          />
        </>
      )}
    </section>
  );
}

function JobRow({ j, admin }: { j: Schemas['JobViewDto']; admin: boolean }) {
  return (
    <tr>
      <td>
        <a href={jobHref(j)}>{j.code}</a>
        {j.description && <div class="muted">{j.description}</div>}
      </td>
      {admin && <td>{j.appId}</td>}
      <td>
        <Status value={jobState(j)} />
      </td>
      <td>{scheduleWords(j.triggerType, j.triggerExpr, j.timeZone)}</td>
      <td>{when(j.nextFireTime)}</td>
      <td>{j.lastRun ? <Status value={j.lastRun.status} /> : '–'}</td>
      <td>{duration(j.lastRun?.durationMs)}</td>
    </tr>
  );
}
