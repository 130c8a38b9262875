import { Injectable, Module } from '@nestjs/common';
import type { Browser } from 'playwright-core';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { MetricsListener } from '../../src/modules/observability/index.js';
import { launch, withChromium } from '../utils/console-browser.js';
import { createJob, neverFiringJob } from '../utils/jobs.js';
import { type AppClient, signedClient, standaloneEnv, startNode, type TestNode, waitFor } from '../utils/test-node.js';

/** `exposure.payroll`: a handler only app A uses; it waits `ms` (default 30 s) or until its attempt is stopped. */
@Injectable()
@JobHandler('exposure.payroll')
class PayrollHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    const ms = (ctx.params as { ms?: number } | null)?.ms ?? 30_000;
    await new Promise((r) => setTimeout(r, ms));
    return null;
  }
}

@Module({ providers: [PayrollHandler] })
class PayrollModule {}

type NodeItem = { nodeId: string; host: string | null; handlers: string[]; active: number; queue: object };
const nodes = async (c: AppClient, query = '') =>
  (await c.request<{ total: number; items: NodeItem[] }>('GET', `/api/nodes${query}`)).body;

/**
 * What a stranger learns without being another app's owner (SECURITY.md "Tenancy and scopes", "Known limits"): the
 * executors, handlers and load of other apps on /api/nodes, handler names on /metrics, and whether /docs can be
 * framed or run injected script. Issue 25, LOW findings.
 */
describe('exposure (standalone)', () => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv({ LOG_LEVEL: 'error' }), { imports: [PayrollModule] });
    a = await signedClient(node);
    b = await signedClient(node);
    admin = await signedClient(node, undefined, [...DEFAULT_SCOPES, Scope.ADMIN]);
    await createJob(a, { ...neverFiringJob('payroll', 'exposure.payroll'), enabled: false });
    expect((await a.submitTask({ handler: 'noop', params: { sleepMs: 30_000 } })).status).toBe(202);
    await waitFor('A has one attempt running', async () => (await nodes(admin)).items[0]?.active === 1);
  }, 60_000);
  afterAll(() => node?.close());

  it("[tenancy] /api/nodes shows another app no executor it has no work for, nor A's handlers, host or load", async () => {
    expect(await nodes(b)).toEqual({ total: 0, items: [] });
    const asked = await nodes(b, '?handler=noop');
    expect(asked.items).toEqual([
      expect.objectContaining({ host: null, handlers: ['noop'], active: 0, queue: { ready: 0, processing: 0 } }),
    ]);
    expect(await nodes(b, '?handler=exposure.payroll')).toMatchObject({ items: [{ handlers: ['exposure.payroll'] }] });
    expect(await nodes(b, '?handler=shell')).toEqual({ total: 0, items: [] }); // never, without the shell scope
  });

  it('[tenancy] /api/nodes shows an app the executors of its own jobs and tasks, with its own load only', async () => {
    const mine = await nodes(a);
    expect(mine.items).toEqual([expect.objectContaining({ host: null, active: 1 })]);
    expect([...mine.items[0].handlers].sort()).toEqual(['exposure.payroll', 'noop']);
    const all = (await nodes(admin)).items;
    expect(all).toEqual([expect.objectContaining({ host: node.config.nodeName, active: 1 })]);
    expect(all[0].handlers).toEqual(expect.arrayContaining(['exposure.payroll', 'http', 'noop']));
  });

  it('[usual] an unknown or malformed ?handler= is a 400 naming handler, or simply matches nothing', async () => {
    expect((await b.request('GET', '/api/nodes?handler=no.such')).body).toEqual({ total: 0, items: [] });
    const bad = await b.request<{ field?: string }>('GET', `/api/nodes?handler=${'x'.repeat(200)}`);
    expect({ status: bad.status, field: bad.body.field }).toEqual({ status: 400, field: 'handler' });
  });

  it('[usual] /docs and its assets are never framed, never sniffed, and allow no script or style but their own', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/swagger-ui.css', '/docs/openapi.json']) {
      const res = await fetch(`${node.url}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect({
        path,
        xfo: res.headers.get('x-frame-options'),
        nosniff: res.headers.get('x-content-type-options'),
        referrer: res.headers.get('referrer-policy'),
      }).toEqual({ path, xfo: 'DENY', nosniff: 'nosniff', referrer: 'no-referrer' });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  withChromium(
    '[usual] /docs renders its operations in a browser under its CSP, with no violation',
    async () => {
      let browser: Browser | undefined;
      try {
        browser = await launch();
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        await page.exposeFunction('twViolation', (v: string) => problems.push(`violation: ${v}`));
        await page.addInitScript(
          "document.addEventListener('securitypolicyviolation', (e) => " +
            "window.twViolation(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample))",
        );
        await page.goto(`${node.url}/docs`);
        await page.locator('#operations-nodes-NodesController_list').waitFor({ timeout: 20_000 });
        expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
        // the inline style of the icon sprite applied: it takes no room
        const sprite = "getComputedStyle(document.querySelector('body > svg')).position";
        expect(await page.evaluate(sprite)).toBe('absolute');
        expect(await page.evaluate('typeof window.twSignRequest')).toBe('function');
        expect(problems).toEqual([]);
      } finally {
        await browser?.close();
      }
    },
    60_000,
  );
});

describe('exposure: /metrics on its own listener (standalone)', () => {
  let node: TestNode | undefined;
  afterEach(() => node?.close());

  it('[usual] without METRICS_PORT, /metrics stays on the http listener, unsigned (as before)', async () => {
    node = await startNode(standaloneEnv({ LOG_LEVEL: 'error' }));
    const res = await fetch(`${node.url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('tickwheel_');
    expect(node.app.get(MetricsListener).port()).toBeNull();
  });

  it('[usual] with METRICS_PORT, the http listener has no /metrics (404) and the metrics port serves it, token asked', async () => {
    const token = 'scrape-token-0123456789';
    node = await startNode(standaloneEnv({ LOG_LEVEL: 'error', METRICS_PORT: '0', METRICS_TOKEN: token }));
    expect((await fetch(`${node.url}/metrics`)).status).toBe(404);
    const doc = (await (await fetch(`${node.url}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    const metrics = `http://127.0.0.1:${node.app.get(MetricsListener).port()}`;
    const scrape = (path: string, auth?: string) =>
      fetch(`${metrics}${path}`, { headers: auth ? { Authorization: auth } : {} });
    const refused = await scrape('/metrics');
    expect({ status: refused.status, challenge: refused.headers.get('www-authenticate') }).toEqual({
      status: 401,
      challenge: 'Bearer realm="metrics"',
    });
    expect((await scrape('/metrics', `Bearer ${token}x`)).status).toBe(401);
    const ok = await scrape('/metrics', `Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('tickwheel_execution_duration_seconds');
    expect((await scrape('/health/live', `Bearer ${token}`)).status).toBe(404);
    expect((await scrape('/api/nodes', `Bearer ${token}`)).status).toBe(404);
  });

  it('[usual] with METRICS_TOKEN and no METRICS_PORT, the http listener asks for the token', async () => {
    const token = 'scrape-token-0123456789';
    node = await startNode(standaloneEnv({ LOG_LEVEL: 'error', METRICS_TOKEN: token }));
    expect((await fetch(`${node.url}/metrics`)).status).toBe(401);
    const ok = await fetch(`${node.url}/metrics`, { headers: { Authorization: `bearer ${token}` } });
    expect(ok.status).toBe(200);
  });
});
