/** Callbacks: the app's deliveries (state, tries, last answer) and its registrations. */
import { useState } from 'preact/hooks';
import { must, type Session } from '../api.js';
import { when } from '../format.js';
import { REFRESH_MS, useLoad } from '../hooks.js';
import { ErrorBox, Pager, Status, Table } from '../parts/ui.js';
import { instanceHref } from './overview.js';

const LIMIT = 50;
const STATES = ['PENDING', 'RETRYING', 'DELIVERED', 'CALLBACK_FAILED'];

export function CallbacksView({ s, app }: { s: Session; app: string }) {
  const [state, setState] = useState('');
  const [offset, setOffset] = useState(0);
  const appId = app || undefined;
  const deliveries = useLoad(
    () =>
      must(
        s.api.GET('/api/callbacks/deliveries', {
          params: { query: { state: (state || undefined) as never, appId, offset, limit: LIMIT } },
        }),
      ),
    [state, offset, app],
    REFRESH_MS * 2,
  );
  const regs = useLoad(() => must(s.api.GET('/api/callbacks', { params: { query: { appId } } })), [app]);
  return (
    <section>
      <h1>Callbacks</h1>
      <h2>Deliveries</h2>
      <label>
        State{' '}
        <select value={state} onChange={(e) => (setOffset(0), setState((e.target as HTMLSelectElement).value))}>
          <option value="">any</option>
          {STATES.map((st) => (
            <option value={st}>{st}</option>
          ))}
        </select>
      </label>
      <ErrorBox error={deliveries.error} />
      {deliveries.data && (
        <>
          <Table
            id="deliveries"
            head={['For', 'To', 'State', 'Tries', 'Last answer', 'Last error', 'Next try', 'Delivered']}
          >
            {deliveries.data.items.map((d) => (
              <tr>
                <td>
                  <a href={instanceHref(d)}>{d.requestId ?? d.instanceId}</a>
                </td>
                <td>{d.url}</td>
                <td>
                  <Status value={d.status} />
                </td>
                <td>{d.attempts}</td>
                <td>{d.lastStatusCode ?? '–'}</td>
                <td class="error-text" title={d.lastError ?? undefined}>
                  <div class="clamp">{d.lastError}</div>
                </td>
                <td>{when(d.nextAttemptAt)}</td>
                <td>{when(d.deliveredAt)}</td>
              </tr>
            ))}
          </Table>
          <Pager
            offset={offset}
            limit={LIMIT}
            total={deliveries.data.total}
            shown={deliveries.data.items.length}
            onPage={setOffset}
          />
        </>
      )}
      <h2>Registrations</h2>
      <ErrorBox error={regs.error} />
      {regs.data && (
        <Table id="registrations" head={['Handler', 'URL', 'Changed']}>
          {regs.data.items.map((r) => (
            <tr>
              <td>{r.handler ?? '(default)'}</td>
              <td>{r.url}</td>
              <td>{when(r.updatedAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
