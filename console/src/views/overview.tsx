/** Overview: the last 24 h by outcome, what runs now, the queue, and the fire load of the next 24 h. */
import { useMemo } from 'preact/hooks';
import uPlot from 'uplot';
import { must, type Session } from '../api.js';
import { ago, OUTCOME_COLOURS } from '../format.js';
import { REFRESH_MS, useLoad } from '../hooks.js';
import { Chart, paddedTimeRange } from '../parts/chart.js';
import { ErrorBox, Progress, Status, Table } from '../parts/ui.js';

const OUTCOMES = ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'];

const count = (rows: { status: string; count: number }[], status: string) =>
  rows.find((r) => r.status === status)?.count ?? 0;

/**
 * The console link of an instance: a job's run by job and instance id, a task by its requestId; both name the owner
 * app (`?appId=`), which an admin's reads of another app's rows need.
 */
export function instanceHref(i: {
  requestId: string | null;
  jobId?: string | null;
  instanceId: string;
  appId: string;
}): string {
  const owner = `?appId=${encodeURIComponent(i.appId)}`;
  if (i.jobId) return `#/jobs/${encodeURIComponent(i.jobId)}/instances/${encodeURIComponent(i.instanceId)}${owner}`;
  return i.requestId === null ? '#/tasks' : `#/tasks/${encodeURIComponent(i.requestId)}${owner}`;
}

export function OverviewView({ s, app }: { s: Session; app: string }) {
  const appId = app || undefined;
  const o = useLoad(() => must(s.api.GET('/api/overview', { params: { query: { appId } } })), [app], REFRESH_MS);
  const load = useLoad(() => must(s.api.GET('/api/schedules/load', { params: { query: { appId } } })), [app], 60_000);
  const d = o.data;
  return (
    <section>
      <h1>Overview</h1>
      <ErrorBox error={o.error} />
      {d && (
        <div class="cards">
          <div class="card">
            <h2>Last 24 h</h2>
            <ul class="outcomes">
              {OUTCOMES.map((st) => (
                <li>
                  <Status value={st} /> <strong data-count={st}>{count(d.finished, st)}</strong>
                </li>
              ))}
            </ul>
            <p>
              Failure rate:{' '}
              <strong id="failure-rate">
                {d.failureRate === null ? '–' : `${(d.failureRate * 100).toFixed(1)} %`}
              </strong>
            </p>
          </div>
          <div class="card">
            <h2>Now</h2>
            <p>
              Running: <strong id="running-count">{d.running}</strong>
            </p>
            <p>
              Queued:{' '}
              {d.queued.map((q) => (
                <span class="queued">
                  {q.status} <strong>{q.count}</strong>{' '}
                </span>
              ))}
            </p>
          </div>
        </div>
      )}
      {d && <HourlyChart hourly={d.hourly} />}
      <h2>Running now</h2>
      {d && d.runningNow.length === 0 && <p>Nothing runs.</p>}
      {d && d.runningNow.length > 0 && (
        <Table head={['What', 'App', 'Handler', 'Node', 'Started', 'Progress']}>
          {d.runningNow.map((r) => (
            <tr>
              <td>
                <a href={instanceHref(r)}>{r.jobCode ?? r.requestId}</a>
              </td>
              <td>{r.appId}</td>
              <td>{r.handler}</td>
              <td>{r.nodeId ?? '–'}</td>
              <td>{ago(r.startedAt)}</td>
              <td>
                <Progress value={r.progress} /> {r.progressNote}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <h2>Fire load, next 24 h</h2>
      <ErrorBox error={load.error} />
      {load.data && <LoadChart load={load.data} />}
    </section>
  );
}

/** Runs of the last 24 h per hour, stacked by outcome. */
function HourlyChart({ hourly }: { hourly: { hourStart: string; counts: { status: string; count: number }[] }[] }) {
  const data = useMemo(() => {
    const xs = hourly.map((h) => Date.parse(h.hourStart) / 1000);
    let below = hourly.map(() => 0);
    const stacks = OUTCOMES.map((st) => (below = hourly.map((h, i) => below[i] + count(h.counts, st))));
    // Cumulative stacks drawn tallest first, so each smaller one shows in front of the one it sits in.
    return [xs, ...stacks.reverse()] as uPlot.AlignedData;
  }, [hourly]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      series: [
        {},
        ...[...OUTCOMES].reverse().map((st) => ({
          label: st,
          stroke: OUTCOME_COLOURS[st],
          fill: OUTCOME_COLOURS[st],
          points: { show: false },
          paths: uPlot.paths.bars!({ size: [0.8, 40] }),
        })),
      ],
      scales: {
        x: { time: true, range: paddedTimeRange(1800) }, // whole bars at both ends
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
    }),
    [],
  );
  return (
    <Chart options={options} data={data} height={160} label="finished runs per hour of the last 24 h, by outcome" />
  );
}

type Load = {
  from: string;
  bucketMs: number;
  buckets: number[];
  herds: { at: string; fires: number; jobs: string[] }[];
};

/** Fires per minute of the next hours, with the seconds where many jobs fire together (herds) marked. */
function LoadChart({ load }: { load: Load }) {
  const data = useMemo(() => {
    const start = Date.parse(load.from);
    const xs = load.buckets.map((_, i) => (start + i * load.bucketMs) / 1000);
    const herdAt = new Map(load.herds.map((h) => [Math.floor((Date.parse(h.at) - start) / load.bucketMs), h.fires]));
    const marks = load.buckets.map((n, i) => (herdAt.has(i) ? n : null));
    return [xs, load.buckets, marks] as uPlot.AlignedData;
  }, [load]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      series: [
        {},
        { label: 'fires / min', stroke: '#1565c0', fill: '#1565c033', paths: uPlot.paths.stepped!({ align: 1 }) },
        { label: 'herd', stroke: '#c62828', points: { show: true, size: 8, fill: '#c62828' }, paths: () => null },
      ],
    }),
    [],
  );
  return (
    <>
      <Chart options={options} data={data} label="fires per minute over the next 24 hours, herds marked" />
      {load.herds.length > 0 && (
        <details>
          <summary>{load.herds.length} herds (many fires in one second)</summary>
          <ul>
            {load.herds.map((h) => (
              <li>
                {new Date(h.at).toLocaleString()}: {h.fires} fires ({h.jobs.join(', ')}
                {h.fires > h.jobs.length ? ', …' : ''})
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
