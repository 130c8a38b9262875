import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type ProductProcess, startProcess } from '../utils/process-node.js';
import { waitFor } from '../utils/test-node.js';

/** Debian's chromium (installed here and by .ci/run); playwright-core drives it, it downloads no browser. */
const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && !process.env.CI)
  console.warn(
    `swagger-ui.e2e-spec: ${CHROMIUM} is missing, so the Swagger UI browser test is skipped (apt-get install ` +
      'chromium to run it); in CI (CI set) a missing chromium fails.',
  );
/** With chromium, or in CI (where its absence must fail); skipped elsewhere. */
const withChromium = available || process.env.CI ? it : it.skip;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Opens operation `id` of /docs (its block id), presses "Try it out", and returns the block. */
async function tryItOut(page: Page, id: string) {
  const block = page.locator(`#${id}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('button.try-out__btn').click();
  return block;
}

/** Presses Execute in `block` and returns the status and body Swagger UI shows for the answer. */
async function execute(block: ReturnType<Page['locator']>): Promise<{ status: string; body: string }> {
  await block.locator('button.execute').click();
  const row = block.locator('.live-responses-table tbody .response').first();
  await row.waitFor({ timeout: 15_000 });
  return {
    status: (await row.locator('.response-col_status').innerText()).trim(),
    body: await row.locator('.response-col_description pre').first().innerText(),
  };
}

/**
 * Swagger UI at /docs (docs/api.md "Swagger UI") signs "Try it out" requests in the browser. A real product process
 * (standalone, first start: credentials.json holds the app id and secret), a real headless chromium: authorize with
 * the app id and the secret, submit a task through "Try it out" (202) and read it back (200); no request the browser
 * sent carried the secret.
 */
describe('Swagger UI signs Try it out in the browser (real chromium)', () => {
  let dir: string;
  let product: ProductProcess | undefined;
  let browser: Browser | undefined;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tw-swagger-ui-'))));
  afterAll(async () => {
    await browser?.close();
    await product?.stop(10_000);
    rmSync(dir, { recursive: true, force: true });
  });

  withChromium(
    'should authorize, submit a task (202) and read it back (200) without sending the secret',
    async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      product = startProcess({ DATA_DIR: join(dir, 'data'), PORT: String(port) });
      await waitFor(
        'the product to answer /health/live',
        async () => (await fetch(`${url}/health/live`).catch(() => null))?.status === 200,
        30_000,
        100,
      );
      const creds = JSON.parse(readFileSync(join(dir, 'data', 'credentials.json'), 'utf8')) as {
        appId: string;
        secret: string;
      };

      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      const page = await browser.newPage();
      const sent: string[] = [];
      page.on('request', (r) => sent.push(`${r.method()} ${r.url()}\n${JSON.stringify(r.headers())}\n${r.postData()}`));
      await page.goto(`${url}/docs`);

      await page.locator('.auth-wrapper button.authorize').click();
      const modal = page.locator('.modal-ux');
      // Each scheme has its own form and Authorize button in the dialog: the app id, then the secret.
      const form = (scheme: string) => modal.locator('form').filter({ has: page.locator('h4', { hasText: scheme }) });
      await form('X-App-Id').locator('input').fill(creds.appId);
      await form('X-App-Id').locator('button.authorize').click();
      await form('X-Signature').locator('input').fill(creds.secret);
      await form('X-Signature').locator('button.authorize').click();
      await modal.locator('button.btn-done').first().click();

      const submit = await tryItOut(page, 'operations-tasks-TasksController_submit');
      const requestId = `swagger-ui-${Date.now()}`;
      await submit.locator('textarea.body-param__text').fill(JSON.stringify({ requestId, handler: 'noop' }));
      const accepted = await execute(submit);
      expect(accepted.status).toBe('202');
      expect(JSON.parse(accepted.body)).toMatchObject({ requestId, status: 'PENDING' });

      const read = await tryItOut(page, 'operations-tasks-TasksController_get');
      await read.locator('input[placeholder="requestId"]').fill(requestId);
      const got = await execute(read);
      expect(got.status).toBe('200');
      expect(JSON.parse(got.body)).toMatchObject({ requestId, handler: 'noop' });

      const api = sent.filter((s) => s.includes('/api/tasks'));
      expect(api.length).toBeGreaterThanOrEqual(2);
      expect(api.every((s) => /"x-signature":"v2=[0-9a-f]{64}"/.test(s))).toBe(true);
      expect(sent.filter((s) => s.includes(creds.secret))).toEqual([]);
      // The curl line shown is the signed request, and the page shows the secret nowhere.
      expect(await submit.locator('.curl-command').innerText()).toMatch(/X-Signature: v2=[0-9a-f]{64}/);
      expect(await page.content()).not.toContain(creds.secret);
    },
    120_000,
  );
});
