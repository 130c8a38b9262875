/** Nodes: live executors and app workers with their handlers, load and heartbeat age. */
import { must, type Session } from '../api.js';
import { ago, when } from '../format.js';
import { REFRESH_MS, useLoad } from '../hooks.js';
import { ErrorBox, Table } from '../parts/ui.js';

export function NodesView({ s }: { s: Session }) {
  const nodes = useLoad(() => must(s.api.GET('/api/nodes')), [], REFRESH_MS);
  return (
    <section>
      <h1>Nodes</h1>
      <ErrorBox error={nodes.error} />
      {!s.admin && (
        <p class="hint">
          Executors that serve this app's jobs and unfinished tasks, with this app's own load; other apps' work is not
          shown.
        </p>
      )}
      {nodes.data && nodes.data.items.length === 0 && <p>No live node.</p>}
      {nodes.data && nodes.data.items.length > 0 && (
        <Table id="nodes" head={['Node', 'Kind', 'Host', 'Handlers', 'Load', 'Queue', 'Heartbeat', 'Up since']}>
          {nodes.data.items.map((n) => (
            <tr>
              <td>{n.nodeId}</td>
              <td>{n.appId ? `worker of ${n.appId}` : 'executor'}</td>
              <td>{n.host ?? '—'}</td>
              <td>{n.handlers.join(', ')}</td>
              <td>
                <meter min={0} max={n.capacity} value={n.active} aria-label="slots in use" /> {n.active}/{n.capacity}
              </td>
              <td>
                {n.queue.ready} ready, {n.queue.processing} taken
              </td>
              <td>{ago(n.lastBeat)}</td>
              <td>{when(n.startedAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
