/** Backfill a past range: first a dry run says how many fires it would make, then a confirmed run makes them. */
import { useState } from 'preact/hooks';
import { must, type Schemas, type Session } from '../api.js';
import { instant } from '../format.js';
import { Action, ErrorBox } from '../parts/ui.js';

/** What the job's overlap policy does to a backfill's runs (README "Overlap"), said before it is made. */
const OVERLAP_NOTE: Record<string, string> = {
  SKIP:
    'This job skips a fire while an earlier one is unfinished (overlap policy SKIP): the backfill runs that find one ' +
    'unfinished end CANCELLED, which with many fires is most of them. To run them all, set the policy to ALLOW ' +
    '(at once) or QUEUE (one after another) first.',
  REPLACE:
    'This job replaces unfinished runs (overlap policy REPLACE): each backfill run cancels the ones before it that ' +
    'are still unfinished. To run them all, set the policy to ALLOW or QUEUE first.',
  QUEUE: 'This job queues its runs (overlap policy QUEUE): the backfill runs start one after another.',
};

export function BackfillForm(props: { s: Session; id: string; owner: string; overlap: string; onDone: () => void }) {
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
          {plan.created > 1 && OVERLAP_NOTE[props.overlap] && (
            <strong class="note" role="note">
              {OVERLAP_NOTE[props.overlap]}{' '}
            </strong>
          )}
          {plan.created > 0 && (
            <Action
              label={`Backfill ${plan.created}`}
              confirm={`Create ${plan.created} BACKFILL instance(s)? They run as fires do (overlap ${props.overlap}).`}
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
