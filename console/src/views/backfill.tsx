/** Backfill a past range: first a dry run says how many fires it would make, then a confirmed run makes them. */
import { useState } from 'preact/hooks';
import { must, type Schemas, type Session } from '../api.js';
import { instant } from '../format.js';
import { Action, ErrorBox } from '../parts/ui.js';

export function BackfillForm(props: { s: Session; id: string; owner: string; onDone: () => void }) {
  const { s, id, owner } = props;
  const [range, setRange] = useState<{ from: string; to: string }>();
  const [plan, setPlan] = useState<Schemas['BackfillResultDto']>();
  const [error, setError] = useState<Error>();
  const [result, setResult] = useState<string>();
  const params = { path: { id }, query: { appId: owner || undefined } };
  const preview = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    setError(undefined);
    setPlan(undefined);
    setResult(undefined);
    try {
      const r = { from: instant(String(f.get('from'))) ?? '', to: instant(String(f.get('to'))) ?? '' };
      setPlan(await must(s.api.POST('/api/jobs/{id}/backfill', { params, body: { ...r, dryRun: true } })));
      setRange(r);
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <div class="backfill">
      <form class="filters" onSubmit={(e) => void preview(e)}>
        <label>
          From <input name="from" type="datetime-local" step={1} required />
        </label>
        <label>
          To <input name="to" type="datetime-local" step={1} required />
        </label>
        <button type="submit">Preview backfill</button>
      </form>
      <ErrorBox error={error} />
      {plan && range && (
        <p id="backfill-plan">
          {plan.fireTimes.length} scheduled times in the range: {plan.created} instance(s) would be created,{' '}
          {plan.existing} already ran.{' '}
          {plan.created > 0 && (
            <Action
              label={`Backfill ${plan.created}`}
              confirm={`Create ${plan.created} BACKFILL instance(s) now? They run like fires.`}
              action={() => must(s.api.POST('/api/jobs/{id}/backfill', { params, body: range }))}
              onDone={(r) => {
                setPlan(undefined);
                setResult(`Created ${(r as Schemas['BackfillResultDto']).created} instance(s).`);
                props.onDone();
              }}
            />
          )}
        </p>
      )}
      {result && <p role="status">{result}</p>}
    </div>
  );
}
