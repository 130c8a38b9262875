/** Import a cron.d file as the app's shell jobs (needs the shell scope), paused unless asked otherwise. */
import { useState } from 'preact/hooks';
import { must, type Schemas, type Session } from '../api.js';
import { ErrorBox } from '../parts/ui.js';

export function ImportView({ s }: { s: Session }) {
  const [result, setResult] = useState<Schemas['CrontabImportResultDto']>();
  const [error, setError] = useState<Error>();
  const submit = async (e: Event) => {
    e.preventDefault();
    const d = new FormData(e.target as HTMLFormElement);
    setError(undefined);
    setResult(undefined);
    try {
      const body = {
        fileName: String(d.get('fileName')),
        content: String(d.get('content')),
        timeZone: String(d.get('timeZone')) || undefined,
        enable: d.get('enable') === 'on',
      };
      setResult(await must(s.api.POST('/api/jobs/import-crontab', { body })));
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <section>
      <h1>Import a crontab</h1>
      <form class="job-form" onSubmit={(e) => void submit(e)}>
        <label>
          File name (jobs are named after it)
          <input name="fileName" required maxLength={100} placeholder="backup" />
        </label>
        <label>
          Time zone
          <input name="timeZone" placeholder="UTC" />
        </label>
        <label>
          cron.d content
          <textarea name="content" rows={10} required placeholder="30 2 * * * root /usr/local/bin/backup" />
        </label>
        <label>
          <input name="enable" type="checkbox" /> Enable the jobs at once (else they are created paused)
        </label>
        <button type="submit">Import</button>
      </form>
      <ErrorBox error={error} />
      {result && (
        <div role="status">
          <p>
            Created {result.created.length}, updated {result.updated.length}, rejected {result.rejectedTotal}.
          </p>
          <ul>
            {result.rejected.map((r) => (
              <li>
                line {r.lineNo}: {r.reason}
              </li>
            ))}
          </ul>
          <p>
            <a href="#/jobs">See the jobs</a>
          </p>
        </div>
      )}
    </section>
  );
}
