/**
 * One instance, a task or a job's fire: status, progress, last checkpoint, attempts (node, fencing token, times,
 * error), the callback delivery, and the handler log following live while it runs. Cancel and redeliver.
 */
import { useEffect, useState } from 'preact/hooks';
import { must, type Schemas, type Session } from '../api.js';
import { between, duration, when } from '../format.js';
import { REFRESH_MS, useLoad } from '../hooks.js';
import { Action, ErrorBox, Facts, Progress, Status, Table } from '../parts/ui.js';

const FINAL = new Set(['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED']);
const LOG_PAGE = 500;
/** Lines kept on the page: a long log shows its newest ones. */
const LOG_KEEP = 5000;

type View = Schemas['TaskViewDto'];
type LogLine = Schemas['LogLineDto'];
type JobInstance = { id: string; instanceId: string; owner: string };

/** The API calls of one instance, whether it is a task (by requestId) or a job's fire (job id + instance id). */
function callsFor(s: Session, requestId?: string, job?: JobInstance, owner = '') {
  if (job) {
    const params = { path: { id: job.id, instanceId: job.instanceId }, query: { appId: job.owner || undefined } };
    return {
      read: () => must(s.api.GET('/api/jobs/{id}/instances/{instanceId}', { params })),
      logs: (after: number) =>
        must(
          s.api.GET('/api/jobs/{id}/instances/{instanceId}/logs', {
            params: { ...params, query: { ...params.query, after, limit: LOG_PAGE } },
          }),
        ),
      cancel: () => must(s.api.POST('/api/jobs/{id}/instances/{instanceId}/cancel', { params })),
      redeliver: () => must(s.api.POST('/api/jobs/{id}/instances/{instanceId}/callback/redeliver', { params })),
    };
  }
  const params = { path: { requestId: requestId! }, query: { appId: owner || undefined } };
  return {
    read: () => must(s.api.GET('/api/tasks/{requestId}', { params })),
    logs: (after: number) =>
      must(
        s.api.GET('/api/tasks/{requestId}/logs', {
          params: { ...params, query: { ...params.query, after, limit: LOG_PAGE } },
        }),
      ),
    cancel: () => must(s.api.POST('/api/tasks/{requestId}/cancel', { params })),
    redeliver: () => must(s.api.POST('/api/tasks/{requestId}/callback/redeliver', { params })),
  };
}

export function InstanceView(props: { s: Session; requestId?: string; job?: JobInstance; owner?: string }) {
  const { s, requestId, job } = props;
  const calls = callsFor(s, requestId, job, props.owner);
  const key = job ? `${job.id}/${job.instanceId}` : requestId;
  const [final, setFinal] = useState(false);
  const v = useLoad(calls.read, [key], final ? undefined : REFRESH_MS / 2);
  useEffect(() => setFinal(!!v.data && FINAL.has(v.data.status)), [v.data?.status]);
  const d = v.data as View | undefined;
  return (
    <section>
      <h1>
        {d?.jobCode ? `Run of ${d.jobCode}` : `Task ${requestId ?? ''}`}
        {d && ' '}
        {d && <Status value={d.status} />}
      </h1>
      {job && (
        <p>
          <a href={`#/jobs/${job.id}${job.owner ? `?appId=${encodeURIComponent(job.owner)}` : ''}`}>← the job</a>
        </p>
      )}
      <ErrorBox error={v.error} />
      {d && (
        <>
          <div class="toolbar" role="toolbar" aria-label="instance actions">
            {!FINAL.has(d.status) && (
              <Action
                label="Cancel this run"
                danger
                confirm="Cancel this run? Its handler is told to stop."
                action={calls.cancel}
                onDone={v.reload}
              />
            )}
            {d.callback && <Action label="Redeliver callback" action={calls.redeliver} onDone={v.reload} />}
          </div>
          <Facts
            rows={[
              ['Request id', d.requestId],
              ['Instance id', d.instanceId],
              ['Handler', d.handler],
              ['Source', d.triggerSource],
              ['Attempt', `${d.attempt} of ${d.maxAttempts}`],
              ['Node', d.nodeId],
              [
                'Progress',
                <span id="progress">
                  <Progress value={d.progress} /> <span id="progress-note">{d.progressNote}</span>
                </span>,
              ],
              ['Progress reported', when(d.progressAt)],
              ['Last checkpoint', d.checkpointAt ? `${when(d.checkpointAt)} (attempt ${d.checkpointAttempt})` : '–'],
              ['Fire time', when(d.fireTime)],
              ['Due', when(d.dueAt)],
              ['Started', when(d.startedAt)],
              ['Finished', when(d.finishedAt)],
              ['Took', duration(between(d.startedAt, d.finishedAt))],
              ['Error', d.error],
              ['Result', d.result === null ? '–' : <pre>{JSON.stringify(d.result, null, 2)}</pre>],
              ['Trace id', d.traceId],
              ['Traceparent', d.traceparent],
            ]}
          />
          {d.note && <p class="note">{d.note}</p>}
          <Attempts attempts={d.attempts ?? []} />
          <Callback c={d.callback} url={d.callbackUrl} />
        </>
      )}
      {d && (
        <>
          <h2>Log</h2>
          <Log key={key} logs={calls.logs} live={!final} />
        </>
      )}
    </section>
  );
}

function Attempts({ attempts }: { attempts: Schemas['AttemptViewDto'][] }) {
  if (attempts.length === 0) return null;
  return (
    <>
      <h2>Attempts</h2>
      <Table id="attempts" head={['#', 'Node', 'Fencing token', 'Status', 'Started', 'Ended', 'Took', 'Error']}>
        {attempts.map((a) => (
          <tr>
            <td>{a.attempt}</td>
            <td>{a.nodeId}</td>
            <td>{a.fencingToken}</td>
            <td>
              <Status value={a.status} />
            </td>
            <td>{when(a.startedAt)}</td>
            <td>{when(a.finishedAt)}</td>
            <td>{duration(between(a.startedAt, a.finishedAt))}</td>
            <td class="error-text" title={a.error ?? undefined}>
              <div class="clamp">{a.error}</div>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function Callback({ c, url }: { c: Schemas['CallbackViewDto'] | null; url: string | null }) {
  return (
    <>
      <h2>Callback</h2>
      {!c ? (
        <p>{url ? `To ${url}: not yet sent (sent once the run is final).` : 'None: no callback address applies.'}</p>
      ) : (
        <Facts
          rows={[
            ['To', c.url],
            ['State', <Status value={c.status} />],
            ['Tries', c.attempts],
            ['Last answer', c.lastStatusCode === null ? '–' : String(c.lastStatusCode)],
            ['Last error', c.lastError],
            ['Next try', when(c.nextAttemptAt)],
            ['Delivered', when(c.deliveredAt)],
          ]}
        />
      )}
    </>
  );
}

/** The handler log, read page by page after the last line seen, asked again every second while the run is live. */
function Log({ logs, live }: { logs: (after: number) => Promise<Schemas['LogPageDto']>; live: boolean }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [error, setError] = useState<Error>();
  const [attempt, setAttempt] = useState(0); // 0: every attempt's lines
  useEffect(() => {
    let stop = false;
    let after = 0;
    let timer: ReturnType<typeof setTimeout>;
    const pull = async () => {
      try {
        for (;;) {
          const page = await logs(after);
          if (stop) return;
          if (page.items.length > 0) {
            after = page.items[page.items.length - 1].id;
            setLines((old) => [...old, ...page.items].slice(-LOG_KEEP));
          }
          if (page.next === null) break;
        }
        setError(undefined);
      } catch (err) {
        setError(err as Error);
      }
      if (!stop && live) timer = setTimeout(pull, REFRESH_MS / 2);
    };
    setLines([]);
    void pull();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [live]);
  const attempts = [...new Set(lines.map((l) => l.attempt))];
  const shown = attempt === 0 ? lines : lines.filter((l) => l.attempt === attempt);
  return (
    <>
      <ErrorBox error={error} />
      {attempts.length > 1 && (
        <label>
          Attempt{' '}
          <select value={attempt} onChange={(e) => setAttempt(Number((e.target as HTMLSelectElement).value))}>
            <option value={0}>all</option>
            {attempts.map((a) => (
              <option value={a}>{a}</option>
            ))}
          </select>
        </label>
      )}
      {shown.length === 0 ? (
        <p class="muted">No log lines{live ? ' yet' : ''}.</p>
      ) : (
        <pre class="log" id="log" tabIndex={0} aria-live="polite">
          {shown.map((l) => (
            <div class={`log-${l.level}`}>
              {when(l.at)} #{l.attempt} {l.level.toUpperCase()} {l.line}
            </div>
          ))}
        </pre>
      )}
    </>
  );
}
