/** Small building blocks every view uses: status badges, error boxes, key/value lists, pagers, confirmations. */
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { STATE_COLOURS } from '../format.js';

/** A status word in its outcome's colour. */
export function Status({ value }: { value: string | null | undefined }) {
  if (!value) return <span>–</span>;
  return (
    <span class="status" data-status={value} style={{ background: STATE_COLOURS[value] ?? '#546e7a' }}>
      {value}
    </span>
  );
}

/** An error, said plainly (role=alert so a screen reader says it too). */
export function ErrorBox({ error }: { error: Error | undefined | null }) {
  return error ? (
    <p class="error" role="alert">
      {error.message}
    </p>
  ) : null;
}

/** A definition list of label → value rows. */
export function Facts({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <>
          <dt>{k}</dt>
          <dd>{v ?? '–'}</dd>
        </>
      ))}
    </dl>
  );
}

/** Previous/next page buttons over `offset`; `total` when the answer gives it. */
export function Pager(props: {
  offset: number;
  limit: number;
  total?: number;
  shown: number;
  onPage: (o: number) => void;
}) {
  const { offset, limit, total, shown, onPage } = props;
  const more = total === undefined ? shown === limit : offset + shown < total;
  return (
    <nav class="pager" aria-label="pages">
      <button disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>
        ← Previous
      </button>
      <span>
        {shown === 0 ? 'Nothing matches.' : `${offset + 1}–${offset + shown}`}
        {total !== undefined ? ` of ${total}` : ''}
      </span>
      <button disabled={!more} onClick={() => onPage(offset + limit)}>
        Next →
      </button>
    </nav>
  );
}

/**
 * A button that runs `action`, shows its error, and, with `confirm`, first asks in a modal dialog (Escape or
 * "Keep" leaves everything as it was).
 */
export function Action(props: {
  label: string;
  action: () => Promise<unknown>;
  confirm?: string;
  danger?: boolean;
  onDone?: (result: unknown) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const run = async () => {
    dialog.current?.close();
    setBusy(true);
    setError(undefined);
    try {
      props.onDone?.(await props.action());
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="action">
      <button
        class={props.danger ? 'danger' : undefined}
        disabled={busy}
        onClick={() => (props.confirm ? dialog.current?.showModal() : void run())}
      >
        {props.label}
      </button>
      {props.confirm && (
        <dialog ref={dialog} aria-label={`Confirm: ${props.label}`}>
          <p>{props.confirm}</p>
          <button class={props.danger ? 'danger' : undefined} onClick={() => void run()}>
            {props.label}
          </button>{' '}
          <button autofocus onClick={() => dialog.current?.close()}>
            Go back
          </button>
        </dialog>
      )}
      <ErrorBox error={error} />
    </span>
  );
}

/** A progress bar with its percentage (progress is 0..1). */
export function Progress({ value }: { value: number | null | undefined }) {
  if (value === null || value === undefined) return <span>–</span>;
  const pct = Math.round(value * 1000) / 10;
  return (
    <span class="progress">
      <progress max={1} value={value} aria-label={`progress ${pct} %`} /> {pct} %
    </span>
  );
}

/** A table with one header row of `head` and `children` as its body rows. */
export function Table(props: { id?: string; head: (string | false)[]; children: ComponentChildren }) {
  return (
    <table id={props.id}>
      <thead>
        <tr>{props.head.map((h) => h !== false && <th>{h}</th>)}</tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}

/** A select of `options` whose first choice, `any` (value ''), asks for no filter. */
export function Choice(props: {
  name?: string;
  label: string;
  value: string;
  any: string;
  options: readonly string[];
}) {
  return (
    <select name={props.name} value={props.value} aria-label={props.label}>
      <option value="">{props.any}</option>
      {props.options.map((o) => (
        <option value={o}>{o}</option>
      ))}
    </select>
  );
}

/** The From and To fields of a time filter (datetime-local, the viewer's zone, to the second). */
export function TimeRange({ from, to }: { from: string; to: string }) {
  return (
    <>
      <label>
        From <input name="from" type="datetime-local" step={1} value={from} />
      </label>
      <label>
        To <input name="to" type="datetime-local" step={1} value={to} />
      </label>
    </>
  );
}
