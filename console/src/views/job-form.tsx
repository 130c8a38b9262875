/** Create or edit a job, with a preview of its next fires (and their DST notes) before it is saved. */
import { useEffect, useState } from 'preact/hooks';
import { must, type Schemas, type Session } from '../api.js';
import { scheduleWords } from '../format.js';
import { go, useLoad } from '../hooks.js';
import { ErrorBox } from '../parts/ui.js';
import { NextFires } from './job.js';
import { jobHref } from './jobs.js';

type Form = {
  code: string;
  description: string;
  handler: string;
  triggerType: 'CRON' | 'FIXED_RATE' | 'FIXED_DELAY' | 'ONE_SHOT';
  triggerExpr: string;
  timeZone: string;
  params: string;
  timeoutMs: string;
  retryMax: string;
  overlapPolicy: 'ALLOW' | 'SKIP' | 'QUEUE' | 'REPLACE';
  misfirePolicy: 'FIRE_ONCE_NOW' | 'SKIP' | 'FIRE_ALL';
};

const BLANK: Form = {
  code: '',
  description: '',
  handler: 'noop',
  triggerType: 'CRON',
  triggerExpr: '0 */5 * * * *',
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  params: '{}',
  timeoutMs: '60000',
  retryMax: '0',
  overlapPolicy: 'ALLOW', // the API's defaults: a job made here behaves as one made with the CLI
  misfirePolicy: 'FIRE_ONCE_NOW',
};

const fromJob = (j: Schemas['JobViewDto']): Form => ({
  code: j.code,
  description: j.description ?? '',
  handler: j.handler,
  triggerType: j.triggerType as Form['triggerType'],
  triggerExpr: j.triggerExpr ?? '',
  timeZone: j.timeZone,
  params: JSON.stringify(j.params ?? {}, null, 2),
  timeoutMs: String(j.timeoutMs),
  retryMax: String(j.retryMax),
  overlapPolicy: j.overlapPolicy as Form['overlapPolicy'],
  misfirePolicy: j.misfirePolicy as Form['misfirePolicy'],
});

/** The body of a create or a change; @throws Error naming `params` when it is not JSON. */
function body(f: Form) {
  let params: Record<string, unknown>;
  try {
    params = JSON.parse(f.params || '{}');
  } catch {
    throw new Error('params: not valid JSON');
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new Error('params: must be a JSON object');
  return {
    code: f.code,
    description: f.description || undefined,
    handler: f.handler,
    triggerType: f.triggerType,
    triggerExpr: f.triggerExpr,
    timeZone: f.timeZone,
    params,
    timeoutMs: Number(f.timeoutMs),
    retryMax: Number(f.retryMax),
    overlapPolicy: f.overlapPolicy,
    misfirePolicy: f.misfirePolicy,
  };
}

export function JobForm({ s, id, owner = '' }: { s: Session; id?: string; owner?: string }) {
  const query = { appId: owner || undefined };
  const job = useLoad(
    () => (id ? must(s.api.GET('/api/jobs/{id}', { params: { path: { id }, query } })) : Promise.resolve(undefined)),
    [id],
  );
  const [form, setForm] = useState<Form>(BLANK);
  const [error, setError] = useState<Error>();
  const [preview, setPreview] = useState<Schemas['SchedulePreviewViewDto']>();
  const [previewError, setPreviewError] = useState<Error>();
  useEffect(() => {
    if (job.data) setForm(fromJob(job.data));
  }, [job.data]);
  useEffect(() => {
    // The preview follows the schedule fields as they are typed (a quarter second after the last key); the answer
    // for a schedule since changed is dropped, so a slow old answer never replaces a newer one.
    let current = true;
    const t = setTimeout(async () => {
      const { triggerType, triggerExpr, timeZone } = form;
      try {
        const body = { triggerType, triggerExpr, timeZone, count: 10 };
        const answer = await must(s.api.POST('/api/schedules/preview', { body }));
        if (!current) return;
        setPreview(answer);
        setPreviewError(undefined);
      } catch (err) {
        if (!current) return;
        setPreview(undefined);
        setPreviewError(err as Error);
      }
    }, 250);
    return () => {
      current = false;
      clearTimeout(t);
    };
  }, [form.triggerType, form.triggerExpr, form.timeZone]);
  const set = (k: keyof Form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const save = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const saved = id
        ? await must(s.api.PATCH('/api/jobs/{id}', { params: { path: { id }, query }, body: body(form) }))
        : await must(s.api.POST('/api/jobs', { body: { ...body(form), enabled: true } }));
      location.hash = jobHref(saved).slice(1);
    } catch (err) {
      setError(err as Error);
    }
  };
  const field = (k: keyof Form, label: string, extra: Record<string, unknown> = {}) => (
    <label>
      {label}
      <input name={k} value={form[k]} onInput={set(k)} {...extra} />
    </label>
  );
  const choice = (k: keyof Form, label: string, values: string[]) => (
    <label>
      {label}
      <select name={k} value={form[k]} onChange={set(k)}>
        {values.map((v) => (
          <option value={v}>{v}</option>
        ))}
      </select>
    </label>
  );
  return (
    <section>
      <h1>{id ? `Edit job ${form.code}` : 'New job'}</h1>
      <ErrorBox error={job.error} />
      <div class="split">
        <form class="job-form" onSubmit={(e) => void save(e)}>
          {field('code', 'Code', { required: true, maxLength: 128, pattern: '[A-Za-z0-9_.\\-]+' })}
          {field('description', 'Description', { maxLength: 255 })}
          {field('handler', 'Handler', { required: true, maxLength: 128 })}
          {choice('triggerType', 'Trigger', ['CRON', 'FIXED_RATE', 'FIXED_DELAY', 'ONE_SHOT'])}
          {field('triggerExpr', 'Expression (cron, period ms, or ISO instant)', { required: true })}
          {field('timeZone', 'Time zone', { required: true })}
          <label>
            Params (JSON)
            <textarea name="params" rows={4} value={form.params} onInput={set('params')} />
          </label>
          {field('timeoutMs', 'Timeout (ms)', { type: 'number', min: 1 })}
          {field('retryMax', 'Retries', { type: 'number', min: 0, max: 19 })}
          {choice('overlapPolicy', 'While the previous run runs', ['ALLOW', 'SKIP', 'QUEUE', 'REPLACE'])}
          {choice('misfirePolicy', 'Missed fires', ['FIRE_ONCE_NOW', 'SKIP', 'FIRE_ALL'])}
          <div>
            <button type="submit">{id ? 'Save changes' : 'Create job'}</button>{' '}
            <button type="button" onClick={() => go(id ? `/jobs/${id}` : '/jobs', { appId: owner })}>
              Cancel
            </button>
          </div>
          <ErrorBox error={error} />
        </form>
        <aside class="preview" aria-live="polite">
          <h2>Next fires</h2>
          <p class="muted">{scheduleWords(form.triggerType, form.triggerExpr, form.timeZone)}</p>
          <ErrorBox error={previewError} />
          {preview && <NextFires fires={preview.fireTimes} />}
        </aside>
      </div>
    </section>
  );
}
