// The console's figures (issue 23, docs/console.md): the bundle's size gzipped; time to first view on localhost with
// --jobs job definitions of one app (server-side paging); and the api process's CPU with --pages console pages open
// on the Overview (it asks every 2 s), against the same window with none. Clustered shape on the real MariaDB +
// Redis: one ROLES=api process (the one measured) and one ROLES=scheduler,executor process; Debian's chromium driven
// by playwright-core. Run: npm run bench:console [-- flags]; see bench/README.md.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { clusterSettings, endCase, withServers } from './lib/cluster.mjs';
import { createApiClient } from './lib/dispatch-db.mjs';
import { CLK_TCK, cpuTicks, freePort, startProduct } from './lib/proc.mjs';
import { distribution, fmt, parseBenchArgs } from './lib/stats.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run bench:console -- [--jobs 10000] [--pages 10] [--window 60] [--reps 5] [--json] [--keep]
  [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]`;
const args = parseBenchArgs({ jobs: 10_000, pages: 10, window: 60, reps: 5, env: '' }, process.argv.slice(2), HELP);
const log = (s) => console.error(s);
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** Gzipped bytes of every file of the built bundle (dist/console/assets) and their sum. */
function bundleSizes() {
  const dir = join(REPO, 'dist/console/assets');
  const files = readdirSync(dir).map((f) => {
    const body = readFileSync(join(dir, f));
    return { file: f, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  return { files, gzipTotal: files.reduce((s, f) => s + f.gzip, 0) };
}

/** `n` jobs of the app: daily and hourly crontab-like schedules spread over the day, so few fire during the bench. */
async function seedJobs(client, n) {
  let next = 0;
  const one = async () => {
    for (let i = next++; i < n; i = next++) {
      const hourly = i % 10 === 0;
      const expr = hourly ? `0 ${i % 60} * * * *` : `0 ${i % 60} ${Math.floor(i / 60) % 24} * * *`;
      const body = {
        code: `job-${String(i).padStart(6, '0')}`,
        handler: 'noop',
        triggerType: 'CRON',
        triggerExpr: expr,
      };
      await client.request('POST', '/api/jobs', body);
    }
  };
  await Promise.all(Array.from({ length: 16 }, one));
}

/** Opens /console in a fresh context and signs in; resolves once `until` is visible. Times in ms. */
async function openSignedIn(browser, url, appId, secret, until = '#running-count') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  let requests = 0;
  page.on('request', (r) => (r.url().includes('/api/') ? requests++ : 0));
  const t0 = performance.now();
  await page.goto(`${url}/console`);
  await page.locator('input[name=appId]').waitFor();
  const t1 = performance.now();
  await page.fill('input[name=appId]', appId);
  await page.fill('input[name=secret]', secret);
  await page.press('input[name=secret]', 'Enter');
  await page.locator(until).waitFor({ timeout: 30_000 });
  const t2 = performance.now();
  return { context, page, load: t1 - t0, signIn: t2 - t1, requests: () => requests };
}

/** Time from a click on "Jobs" until the first page of rows (50) shows, ms. */
async function jobsView(page) {
  const t = performance.now();
  await page.click('header nav a[href="#/jobs"]');
  await page.locator('#jobs tbody tr:nth-child(50)').waitFor({ timeout: 30_000 });
  return performance.now() - t;
}

/** The api process's CPU (cores) over `s` seconds. */
async function apiCores(pid, s) {
  const a = cpuTicks(pid);
  const t = Date.now();
  await new Promise((r) => setTimeout(r, s * 1000));
  return (cpuTicks(pid) - a) / CLK_TCK / ((Date.now() - t) / 1000);
}

const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: REPO, stdio: 'inherit' });
if (built.status !== 0) throw new Error('build failed');
const sizes = bundleSizes();
const report = { product: 'dist (npm run build)', args, bundle: sizes };
log(
  `bundle: ${sizes.files.map((f) => `${f.file} ${fmt(f.bytes / 1024, 1)} KiB (${fmt(f.gzip / 1024, 1)} gz)`).join(', ')}`,
);
log(`bundle total gzipped: ${fmt(sizes.gzipTotal / 1024, 1)} KiB`);

await withServers(args, report, log, async (pool, redis, secretKey) => {
  const namespace = `bench-console-${Date.now()}`;
  const appId = `bc-${randomBytes(3).toString('hex')}`;
  const product = { mainJs: join(REPO, 'dist/src/main.js'), cwd: REPO };
  const env = clusterSettings(args, secretKey, namespace);
  const procs = [];
  let browser;
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const api = await startProduct(product, { ...env, ROLES: 'api', PORT: String(port), NODE_NAME: 'bc-api' });
    procs.push(api);
    procs.push(await startProduct(product, { ...env, ROLES: 'scheduler,executor', PORT: '0', NODE_NAME: 'bc-1' }));
    const { client, secret } = await createApiClient(product, env, appId, url);
    let t = Date.now();
    await seedJobs(client, args.jobs);
    log(`seeded ${args.jobs} jobs in ${fmt((Date.now() - t) / 1000, 1)} s`);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

    const views = [];
    for (let i = 0; i < args.reps; i++) {
      const v = await openSignedIn(browser, url, appId, secret);
      views.push({ load: v.load, signIn: v.signIn, first: v.load + v.signIn, jobs: await jobsView(v.page) });
      await v.context.close();
    }
    report.firstView = Object.fromEntries(
      ['load', 'signIn', 'first', 'jobs'].map((k) => [k, distribution(views.map((v) => v[k]))]),
    );
    log(
      `first view, median of ${args.reps}: page ready ${fmt(report.firstView.load.p50)} ms, sign-in → overview ` +
        `${fmt(report.firstView.signIn.p50)} ms (first view in all ${fmt(report.firstView.first.p50)} ms), ` +
        `Jobs → first 50 of ${args.jobs} rows ${fmt(report.firstView.jobs.p50)} ms`,
    );

    t = Date.now();
    const idle = await apiCores(api.pid, args.window);
    const pages = [];
    for (let i = 0; i < args.pages; i++) pages.push(await openSignedIn(browser, url, appId, secret));
    await new Promise((r) => setTimeout(r, 5000));
    const before = pages.reduce((s, p) => s + p.requests(), 0);
    const tOpen = Date.now();
    const open = await apiCores(api.pid, args.window);
    const asked = pages.reduce((s, p) => s + p.requests(), 0) - before;
    const perRefreshMs = ((open - idle) * ((Date.now() - tOpen) / 1000) * 1000) / Math.max(1, asked);
    report.cpu = { idleCores: idle, openCores: open, addedCores: open - idle, apiRequests: asked, perRefreshMs };
    log(
      `api CPU: ${fmt(idle * 100, 2)} % of a core with no page, ${fmt(open * 100, 2)} % with ${args.pages} Overview ` +
        `pages open (+${fmt((open - idle) * 100, 2)} points); ${asked} API calls in ${args.window} s, ` +
        `${fmt(perRefreshMs, 2)} ms of api CPU per call`,
    );
    for (const p of pages) await p.context.close();

    // The same refresh without a browser: the api's CPU per call of each route a live Overview asks.
    report.perCall = {};
    for (const path of ['/api/overview', '/api/schedules/load', '/api/jobs?limit=50']) {
      const n = path.startsWith('/api/schedules') ? 60 : 300;
      const a = cpuTicks(api.pid);
      for (let i = 0; i < n; i++) await client.request('GET', path);
      report.perCall[path] = ((cpuTicks(api.pid) - a) / CLK_TCK / n) * 1000;
    }
    log(
      `api CPU per call, sequential, no browser: ${Object.entries(report.perCall)
        .map(([p, ms]) => `${p} ${fmt(ms, 2)} ms`)
        .join(', ')}`,
    );
  } finally {
    await browser?.close();
    await endCase({ procs, pool, redis, namespace, appId, nodePrefix: 'bc-' }, args.keep, log);
  }
});
if (args.json) console.log(JSON.stringify(report, null, 2));
