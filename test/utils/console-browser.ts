import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's chromium (installed by .ci/run); playwright-core drives it and downloads no browser. */
export const CHROMIUM = '/usr/bin/chromium';
/** With chromium, or in CI (where its absence must fail); skipped elsewhere with a warning. */
export const withChromium = existsSync(CHROMIUM) || process.env.CI ? it : it.skip;
if (!existsSync(CHROMIUM) && !process.env.CI)
  console.warn(`${CHROMIUM} is missing: the console browser tests are skipped (apt-get install chromium)`);

/** Where screenshots go: $TEST_ARTIFACTS_DIR/console, else artifacts/console in the repository (git-ignored). */
export const SHOTS = join(process.env.TEST_ARTIFACTS_DIR ?? 'artifacts', 'console');

/** A headless chromium with the flags this machine needs (no background calls to the closed network). */
export async function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'],
  });
}

/** A page in a fresh context (no shared storage) recording every request it sends: method, URL, headers, body. */
export async function recordingPage(
  browser: Browser,
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; context: BrowserContext; sent: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const sent: string[] = [];
  page.on('request', (r) => sent.push(`${r.method()} ${r.url()}\n${JSON.stringify(r.headers())}\n${r.postData()}`));
  return { page, context, sent };
}

/** Opens /console and signs in with the keyboard only (type, Tab, Enter), as a person without a mouse would. */
export async function signInByKeyboard(page: Page, url: string, appId: string, secret: string): Promise<void> {
  await page.goto(`${url}/console`);
  await page.locator('input[name=appId]').waitFor();
  await page.locator('input[name=appId]').focus();
  await page.keyboard.type(appId);
  await page.keyboard.press('Tab');
  await page.keyboard.type(secret);
  await page.keyboard.press('Enter');
}

/** Everything the page keeps: local and session storage, IndexedDB databases, cookies. */
export async function pageStorage(page: Page, context: BrowserContext): Promise<string> {
  // A string: it runs in the page, whose globals this file's types (Node's) do not know.
  const storage = await page.evaluate<string>(
    '(async () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + ' +
      'JSON.stringify(await indexedDB.databases()))()',
  );
  return storage + JSON.stringify(await context.cookies());
}
