import { Injectable, Module } from '@nestjs/common';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { CONSOLE_CSP } from '../../src/modules/console/index.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { launch, pageStorage, recordingPage, SHOTS, signInByKeyboard, withChromium } from '../utils/console-browser.js';
import { type AppClient, signedClient, standaloneEnv, startNode, type TestNode, waitFor } from '../utils/test-node.js';

/** `console.long`: `steps` steps of `stepMs`, each reporting progress and logging a line. */
@Injectable()
@JobHandler('console.long')
class LongHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    const { steps, stepMs, fail } = ctx.params as { steps: number; stepMs: number; fail?: boolean };
    for (let i = 1; i <= steps; i++) {
      await new Promise((r) => setTimeout(r, stepMs));
      ctx.log.info(`step ${i} of ${steps}`);
      ctx.progress(i / steps, `step ${i}`);
    }
    if (fail) throw new Error(`failed after ${steps} steps, as asked`);
    return { steps };
  }
}

@Module({ providers: [LongHandler] })
class LongModule {}

/**
 * The console (docs/console.md) in a real headless chromium against a real node (standalone: api, scheduler and
 * executor in one, SQLite): sign-in, jobs, a live task, tenancy, and that no request or stored byte carries a secret.
 */
describe('console in a real browser', () => {
  let node: TestNode;
  let browser: Browser | undefined;
  let a: AppClient;
  let b: AppClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv(), { imports: [LongModule] });
    a = await signedClient(node, 'console-a');
    b = await signedClient(node, 'console-b');
  });
  afterAll(async () => {
    await browser?.close();
    await node?.close();
  });

  it('should serve /console with a strict CSP, no framing, and only same-origin assets', async () => {
    const res = await fetch(`${node.url}/console`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe|https?:/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style|https?:\/\//); // no inline script or style, no other origin
    const js = await fetch(`${node.url}/console/assets/console.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect((await fetch(`${node.url}/console/assets/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${node.url}/console/assets/nope.js`)).status).toBe(404);
  });

  withChromium(
    'should refuse a wrong secret with a clear message',
    async () => {
      browser ??= await launch();
      const { page, context } = await recordingPage(browser);
      await signInByKeyboard(page, node.url, a.appId, 'not-the-secret');
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).toMatch(/wrong app id or secret/);
      await page.screenshot({ path: join(SHOTS, 'sign-in-refused.png') });
      await context.close();
    },
    60_000,
  );

  withChromium(
    'should create a job with its preview, trigger it, pause and resume it, and follow a long task live',
    async () => {
      browser ??= await launch();
      const { page, context, sent } = await recordingPage(browser);
      await signInByKeyboard(page, node.url, a.appId, a.secret);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.locator('#running-count').waitFor();

      // Create a job from the form: its next fires show before it is saved.
      await page.goto(`${node.url}/console#/jobs/new`);
      await page.locator('input[name=code]').fill('nightly-report');
      await page.locator('input[name=triggerExpr]').fill('0 30 2 * * *');
      await page.locator('input[name=timeZone]').fill('Europe/Paris');
      // The preview follows the typed schedule (the default one's fires show first).
      await waitFor(
        "the new schedule's preview",
        async () => (await page.locator('.preview').innerText()).includes('02:30:00+01:00'),
        10_000,
      );
      expect(await page.locator('.preview ol.fires li').count()).toBe(10);
      await page.screenshot({ path: join(SHOTS, 'job-form.png'), fullPage: true });
      await page.getByRole('button', { name: 'Create job' }).click();
      await page.getByRole('heading', { name: /Job nightly-report/ }).waitFor();
      expect(await page.locator('h1 .status').innerText()).toBe('ENABLED');

      // Trigger now: the run shows up in the job's runs.
      await page.getByRole('button', { name: 'Trigger now' }).click();
      await waitFor(
        'the triggered run to succeed on the page',
        async () => (await page.locator('#runs tbody tr .status').allInnerTexts()).includes('SUCCESS'),
        15_000,
      );
      expect(await page.locator('#runs tbody tr').first().innerText()).toContain('MANUAL');

      // A backfill is previewed (a dry run: nothing written) before it is made.
      const local = (ms: number) => new Date(ms - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
      await page.locator('input[name=from]').fill(local(Date.now() - 3 * 86_400_000));
      await page.locator('input[name=to]').fill(local(Date.now() - 60_000));
      await page.getByRole('button', { name: 'Preview backfill' }).click();
      await page.locator('#backfill-plan').waitFor();
      expect(await page.locator('#backfill-plan').innerText()).toMatch(/^3 scheduled times in the range: 3 instance/);
      expect(await page.locator('#runs tbody tr').count()).toBe(1);

      await page.getByRole('button', { name: 'Pause' }).click();
      await waitFor('PAUSED', async () => (await page.locator('h1 .status').innerText()) === 'PAUSED', 5000);
      await page.getByRole('button', { name: 'Resume' }).click();
      await waitFor('ENABLED', async () => (await page.locator('h1 .status').innerText()) === 'ENABLED', 5000);
      await page.screenshot({ path: join(SHOTS, 'job.png'), fullPage: true });

      await page.goto(`${node.url}/console#/jobs`);
      await page.locator('#jobs tbody tr').first().waitFor();
      expect(await page.locator('#jobs tbody').innerText()).toContain('nightly-report');
      expect(await page.locator('#jobs tbody').innerText()).toContain('At 02:30 (Europe/Paris)'); // the schedule in words
      await page.screenshot({ path: join(SHOTS, 'jobs.png'), fullPage: true });

      // A long task: its progress bar moves and its log follows while it runs.
      const requestId = `console-long-${Date.now()}`;
      await a.submitTask({ requestId, handler: 'console.long', params: { steps: 12, stepMs: 700 } });
      await page.goto(`${node.url}/console#/tasks/${requestId}`);
      const progress = async () => Number((await page.locator('#progress progress').getAttribute('value')) ?? -1);
      const lines = async () => page.locator('#log div').count();
      await waitFor('a first progress report', async () => (await progress()) > 0, 15_000);
      const [p1, l1] = [await progress(), await lines()];
      await waitFor('progress to move', async () => (await progress()) > p1 + 0.15, 10_000);
      await waitFor('the log to follow', async () => (await lines()) > l1, 10_000);
      expect(await page.locator('h1 .status').innerText()).toBe('RUNNING');
      await page.screenshot({ path: join(SHOTS, 'task-running.png'), fullPage: true });
      await waitFor('SUCCESS', async () => (await page.locator('h1 .status').innerText()) === 'SUCCESS', 20_000);
      await waitFor('every log line', async () => (await lines()) === 12, 5000);

      // The overview counts what ran and shows what runs now.
      for (let i = 0; i < 3; i++)
        await a.submitTask({
          requestId: `${requestId}-f${i}`,
          handler: 'console.long',
          params: { steps: 1, stepMs: 10, fail: true },
        });
      await a.submitTask({ requestId: `${requestId}-2`, handler: 'console.long', params: { steps: 30, stepMs: 500 } });
      await page.goto(`${node.url}/console#/`);
      await waitFor(
        'the overview to count the runs',
        async () => (await page.locator('[data-count=FAILED]').innerText()) === '3',
        10_000,
      );
      await waitFor('the running task', async () => (await page.locator('#running-count').innerText()) === '1', 10_000);
      expect(await page.locator('[data-count=SUCCESS]').innerText()).toBe('2'); // the job's run and the long task
      expect(await page.locator('#failure-rate').innerText()).toBe('60.0 %');
      await page.screenshot({ path: join(SHOTS, 'overview.png'), fullPage: true });
      await a.request('POST', `/api/tasks/${requestId}-2/cancel`);

      // A phone's width: nothing wider than the screen but the tables' own scroll boxes.
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`${node.url}/console#/jobs`);
      await page.locator('#jobs tbody tr').first().waitFor();
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(SHOTS, 'jobs-phone.png'), fullPage: true });

      expect(sent.filter((s) => s.includes('/api/')).length).toBeGreaterThan(10);
      expect(sent.filter((s) => s.includes(a.secret))).toEqual([]);
      expect(await pageStorage(page, context)).not.toContain(a.secret);
      expect(await page.content()).not.toContain(a.secret);
      await context.close();
    },
    120_000,
  );

  withChromium('should answer a malformed link with "No such page", not a broken page', async () => {
    browser ??= await launch();
    const { page, context } = await recordingPage(browser);
    await signInByKeyboard(page, node.url, a.appId, a.secret);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.goto(`${node.url}/console#/tasks/%E0`);
    await page.getByText('No such page.').waitFor();
    await context.close();
  });

  withChromium(
    "should show a second app none of the first app's jobs or tasks",
    async () => {
      browser ??= await launch();
      const requestId = `console-a-only-${Date.now()}`;
      await a.submitTask({ requestId, handler: 'noop' });
      const { page, context, sent } = await recordingPage(browser);
      await signInByKeyboard(page, node.url, b.appId, b.secret);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.goto(`${node.url}/console#/jobs`);
      await page.locator('.pager').waitFor();
      expect(await page.locator('#jobs tbody tr').count()).toBe(0);
      await page.goto(`${node.url}/console#/tasks`);
      await page.locator('.pager').waitFor();
      expect(await page.locator('#tasks tbody tr').count()).toBe(0);
      await page.goto(`${node.url}/console#/tasks/${requestId}`);
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).toMatch(/^404/);
      expect(await page.locator('#log').count()).toBe(0);
      expect(sent.filter((s) => s.includes(b.secret))).toEqual([]);
      expect(await pageStorage(page, context)).not.toContain(b.secret);
      await context.close();
    },
    60_000,
  );

  withChromium(
    "should show an admin every app's jobs, with an app filter, and the audit log",
    async () => {
      browser ??= await launch();
      const admin = await signedClient(node, 'console-admin', [...DEFAULT_SCOPES, Scope.ADMIN]);
      await b.request('POST', '/api/jobs', {
        code: 'b-job',
        handler: 'noop',
        triggerType: 'CRON',
        triggerExpr: '0 0 * * * *',
      });
      const { page, context, sent } = await recordingPage(browser);
      await signInByKeyboard(page, node.url, admin.appId, admin.secret);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.goto(`${node.url}/console#/jobs`);
      await page.locator('#jobs tbody tr').nth(1).waitFor();
      const all = await page.locator('#jobs tbody').innerText();
      expect(all).toContain('nightly-report');
      expect(all).toContain('b-job');
      await page.getByLabel('App').fill(b.appId);
      await page.getByLabel('App').press('Enter');
      await waitFor('the filter', async () => (await page.locator('#jobs tbody tr').count()) === 1, 5000);
      expect(await page.locator('#jobs tbody').innerText()).toContain('b-job');
      // Another app's task, opened from the admin's task list, reads through ?appId= (its owner).
      await page.getByLabel('App').fill('');
      await page.getByLabel('App').press('Enter');
      await page.goto(`${node.url}/console#/tasks`);
      await page.locator('#tasks tbody tr a').first().click();
      await page.locator('h1 .status').waitFor();
      expect(await page.locator('h1').innerText()).toMatch(/^Task console-/);
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByLabel('App').fill(b.appId);
      await page.getByLabel('App').press('Enter');
      await page.goto(`${node.url}/console#/audit`);
      await page.locator('#audit tbody tr').first().waitFor();
      expect(await page.locator('#audit tbody').innerText()).toContain('JOB_CREATE');
      await page.screenshot({ path: join(SHOTS, 'audit.png'), fullPage: true });
      expect(sent.filter((s) => s.includes(admin.secret))).toEqual([]);
      await context.close();
    },
    60_000,
  );
});
