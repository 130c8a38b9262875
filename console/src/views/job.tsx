/** A job's page: its definition, next fires with their DST notes, its run history as a chart and a table, actions. */
import { useMemo, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { must, type Schemas, type Session } from '../api.js';
import { between, duration, OUTCOME_COLOURS, scheduleWords, when } from '../format.js';
import { go, REFRESH_MS, useLoad } from '../hooks.js';
import { Chart, paddedTimeRange } from '../parts/chart.js';
import { Action, ErrorBox, Facts, Status, Table } from '../parts/ui.js';
import { BackfillForm } from './backfill.js';
import { jobState } from './jobs.js';

const RUNS = 200;

/** A job's path and its ?appId= (an admin's view of another app's job names the owner). */
export interface JobRef {
  id: string;
  owner: string;
}

export function JobView({ s, id, owner }: { s: Session } & JobRef) {
  const appId = owner || undefined;
  const path = { id };
  const job = useLoad(
    () => must(s.api.GET('/api/jobs/{id}', { params: { path, query: { appId } } })),
    [id, owner],
    REFRESH_MS * 2,
  );
  const runs = useLoad(
    () => must(s.api.GET('/api/jobs/{id}/instances', { params: { path, query: { appId, limit: RUNS } } })),
    [id, owner],
    REFRESH_MS,
  );
  const [note, setNote] = useState<string>();
  const j = job.data;
  const act = (label: string, route: '/api/jobs/{id}/trigger' | '/api/jobs/{id}/pause' | '/api/jobs/{id}/resume') => (
    <Action
      label={label}
      action={() => must(s.api.POST(route, { params: { path, query: { appId } } }))}
      onDone={() => {
        setNote(`${label}: done`);
        job.reload();
        runs.reload();
      }}
    />
  );
  return (
    <section>
      <h1>
        Job {j?.code ?? id} {j && <Status value={jobState(j)} />}
      </h1>
      <ErrorBox error={job.error} />
      {j && (
        <>
          <div class="toolbar" role="toolbar" aria-label="job actions">
            {act('Trigger now', '/api/jobs/{id}/trigger')}
            {j.enabled ? act('Pause', '/api/jobs/{id}/pause') : act('Resume', '/api/jobs/{id}/resume')}
            <a class="button" href={`#/jobs/${j.id}/edit?appId=${encodeURIComponent(j.appId)}`}>
              Edit
            </a>
            <Action
              label="Delete"
              danger
              confirm={`Delete job ${j.code}? Its schedule stops for good; its runs stay as history.`}
              action={() => must(s.api.DELETE('/api/jobs/{id}', { params: { path, query: { appId } } }))}
              onDone={() => go('/jobs')}
            />
            {note && <span role="status">{note}</span>}
          </div>
          <Definition j={j} />
          <h2>Next fires</h2>
          <NextFires fires={j.nextFires} />
          <h2>Backfill</h2>
          <BackfillForm s={s} id={j.id} owner={owner} overlap={j.overlapPolicy} onDone={runs.reload} />
        </>
      )}
      <h2>Runs</h2>
      <ErrorBox error={runs.error} />
      {runs.data && <RunChart runs={runs.data.items} />}
      {runs.data && <RunTable runs={runs.data.items} jobId={id} owner={owner} />}
    </section>
  );
}

function Definition({ j }: { j: Schemas['JobViewDto'] }) {
  return (
    <Facts
      rows={[
        ['App', j.appId],
        ['Description', j.description],
        ['Handler', j.handler],
        [
          'Schedule',
          `${scheduleWords(j.triggerType, j.triggerExpr, j.timeZone)} — ${j.triggerType} ${j.triggerExpr ?? ''}`,
        ],
        ['Schedule state', j.scheduleError ? `${j.scheduleState}: ${j.scheduleError}` : j.scheduleState],
        ['Routing', `${j.routingStrategy}${j.routingKey ? ` (${j.routingKey})` : ''}, ${j.shardTotal} shard(s)`],
        [
          'Misfire / overlap',
          `${j.misfirePolicy} / ${j.overlapPolicy}` +
            (j.overlapPolicy === 'QUEUE' ? ` (at most ${j.queueLimit} queued)` : ''),
        ],
        ['Timeout', duration(j.timeoutMs)],
        ['Retries', `${j.retryMax} (${j.retryBackoffKind} ${duration(j.retryBackoffMs)})`],
        ['Last fire', when(j.lastFireTime)],
        ['Params', <pre>{JSON.stringify(j.params, null, 2)}</pre>],
        ['Version', String(j.version)],
        ['Created', when(j.createdAt)],
      ]}
    />
  );
}

/** Fire times with their wall time in the job's zone and, where a clock change moved or merged one, its note. */
export function NextFires({ fires }: { fires: Schemas['FireTimeDto'][] }) {
  if (fires.length === 0) return <p>No fire ahead.</p>;
  return (
    <ol class="fires">
      {fires.map((f) => (
        <li>
          <time dateTime={f.fireTime}>{f.local}</time>
          {f.note && (
            <span class="dst" role="note">
              {' '}
              ⚠ {f.note.detail}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

type Run = Schemas['TaskViewDto'];

/** One mark per fire, coloured by outcome, its height the run's duration (s). */
function RunChart({ runs }: { runs: Run[] }) {
  const statuses = Object.keys(OUTCOME_COLOURS);
  const data = useMemo(() => {
    const sorted = [...runs].sort((a, b) => Date.parse(a.fireTime) - Date.parse(b.fireTime));
    const xs = sorted.map((r) => Date.parse(r.fireTime) / 1000);
    const took = (r: Run) => (between(r.startedAt, r.finishedAt ?? new Date().toISOString()) ?? 0) / 1000;
    return [xs, ...statuses.map((st) => sorted.map((r) => (r.status === st ? took(r) : null)))] as uPlot.AlignedData;
  }, [runs]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      series: [
        {},
        ...statuses.map((st) => ({
          label: st,
          stroke: OUTCOME_COLOURS[st],
          fill: OUTCOME_COLOURS[st],
          paths: uPlot.paths.bars!({ size: [0.6, 12] }),
          points: { show: true, size: 6, fill: OUTCOME_COLOURS[st] },
        })),
      ],
      axes: [{}, { label: 'seconds' }],
      scales: { x: { time: true, range: paddedTimeRange(1800) } }, // at least an hour around the runs
    }),
    [],
  );
  return <Chart options={options} data={data} label="run history: one mark per fire, height = duration" />;
}

function RunTable({ runs, jobId, owner }: { runs: Run[]; jobId: string; owner: string }) {
  if (runs.length === 0) return <p>No run yet.</p>;
  const q = owner ? `?appId=${encodeURIComponent(owner)}` : '';
  return (
    <Table id="runs" head={['Fire time', 'Source', 'Shard', 'Status', 'Attempt', 'Node', 'Took', 'Error']}>
      {runs.map((r) => (
        <tr>
          <td>
            <a href={`#/jobs/${jobId}/instances/${r.instanceId}${q}`}>{when(r.fireTime)}</a>
          </td>
          <td>{r.triggerSource}</td>
          <td>{r.shardTotal > 1 ? `${r.shardIndex + 1}/${r.shardTotal}` : ''}</td>
          <td>
            <Status value={r.status} />
          </td>
          <td>{r.attempt}</td>
          <td>{r.nodeId ?? '–'}</td>
          <td>{duration(between(r.startedAt, r.finishedAt))}</td>
          <td class="error-text" title={r.error ?? undefined}>
            <div class="clamp">{r.error}</div>
          </td>
        </tr>
      ))}
    </Table>
  );
}
