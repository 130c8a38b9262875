/**
 * The Tickwheel console (docs/console.md): a signed-in app's overview, jobs, tasks, callbacks, audit and nodes,
 * routed by the URL's hash. Everything it shows comes from the signed API of this origin, as that app may see it.
 */
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import '../console.css';
import { useState } from 'preact/hooks';
import type { Session } from './api.js';
import { go, useRoute } from './hooks.js';
import { AuditView } from './views/audit.js';
import { CallbacksView } from './views/callbacks.js';
import { ImportView } from './views/import.js';
import { InstanceView } from './views/instance.js';
import { JobForm } from './views/job-form.js';
import { JobView } from './views/job.js';
import { JobsView } from './views/jobs.js';
import { NodesView } from './views/nodes.js';
import { OverviewView } from './views/overview.js';
import { SignIn } from './views/signin.js';
import { TasksView } from './views/tasks.js';

const NAV: [string, string][] = [
  ['/', 'Overview'],
  ['/jobs', 'Jobs'],
  ['/tasks', 'Tasks'],
  ['/callbacks', 'Callbacks'],
  ['/audit', 'Audit'],
  ['/nodes', 'Nodes'],
];

/** The view a hash path names, or null. `app` is an admin's app filter ('' = every app of the namespace). */
function routeTo(s: Session, path: string, query: URLSearchParams, app: string) {
  let p: string[];
  try {
    p = path.split('/').map(decodeURIComponent);
  } catch {
    return null; // a malformed %-escape: "No such page", not a broken render
  }
  const owner = query.get('appId') ?? app;
  if (path === '/') return <OverviewView s={s} app={app} />;
  if (path === '/jobs') return <JobsView s={s} app={app} query={query} />;
  if (path === '/jobs/new') return <JobForm s={s} />;
  if (path === '/import') return <ImportView s={s} />;
  if (p[1] === 'jobs' && p.length === 3) return <JobView s={s} id={p[2]} owner={owner} />;
  if (p[1] === 'jobs' && p[3] === 'edit') return <JobForm s={s} id={p[2]} owner={owner} />;
  if (p[1] === 'jobs' && p[3] === 'instances' && p[4])
    return <InstanceView s={s} job={{ id: p[2], instanceId: p[4], owner }} />;
  if (path === '/tasks') return <TasksView s={s} app={app} query={query} />;
  if (p[1] === 'tasks' && p[2]) return <InstanceView s={s} requestId={p[2]} owner={owner} />;
  if (path === '/callbacks') return <CallbacksView s={s} app={app} />;
  if (path === '/audit') return <AuditView s={s} app={app} query={query} />;
  if (path === '/nodes') return <NodesView s={s} />;
  return null;
}

/** The whole page: sign-in until a session exists, then the navigation and the routed view. */
function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [app, setApp] = useState('');
  const { path, query } = useRoute();
  if (!session) return <SignIn onSession={setSession} />;
  const view = routeTo(session, path, query, app);
  const section = '/' + (path.split('/')[1] ?? '');
  return (
    <>
      <header>
        <strong class="brand">Tickwheel</strong>
        <nav aria-label="sections">
          {NAV.map(([href, label]) => (
            <a href={`#${href}`} aria-current={section === href ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="who">
          {session.admin && (
            <label>
              App{' '}
              <input
                value={app}
                placeholder="all apps"
                size={12}
                onChange={(e) => setApp((e.target as HTMLInputElement).value.trim())}
              />
            </label>
          )}
          <span title={session.scopes.join(' ')}>
            {session.appId}
            {session.admin ? ' (admin)' : ''} · {session.namespace || 'default'}
          </span>
          <button
            onClick={() => {
              setSession(null);
              go('/');
            }}
          >
            Sign out
          </button>
        </span>
      </header>
      <main id="main">
        {view ?? (
          <p>
            No such page. <a href="#/">Overview</a>
          </p>
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
