// The product as a chaos run uses it: a snapshot of the built dist/, an API client made by its own CLI, signed
// requests that outlast a killed API process, and the clean-up of everything a run wrote.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from './run-util.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Copies the built dist/ into the run's directory and runs the product from there, so a rebuild of the shared
 * tree during the run (another engineer, the test setup) cannot pull files from under a restart.
 * @returns {string} the product root (holds dist/, a node_modules link and a package.json of type module)
 */
export async function snapshotProduct(dir) {
  const main = join(REPO, 'dist/src/main.js');
  for (let i = 0; !existsSync(main); i++) {
    if (i > 120) throw new Error('dist/src/main.js is missing: run npm run build');
    await sleep(500); // someone is rebuilding dist/ right now
  }
  const root = join(dir, 'product');
  cpSync(join(REPO, 'dist'), join(root, 'dist'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  return root;
}

/**
 * Creates an API client with the product's own CLI and returns its id and secret. It is unlimited
 * (--rate-limit 0): the run submits thousands of tasks as fast as it can, which the default rate limit would slow.
 */
export async function apiClient(env, product) {
  const appId = `chaos-${randomBytes(4).toString('hex')}`;
  const out = execFileSync(
    process.execPath,
    [join(product, 'dist/src/bin/create-app.js'), appId, '--rate-limit', '0'],
    {
      cwd: product,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'error', ...env },
      encoding: 'utf8',
    },
  );
  const secret = /Secret:\s+(\S+)/.exec(out)?.[1];
  if (!secret) throw new Error(`create-app printed no secret:\n${out}`);
  return { appId, secret };
}

/** Sends a signed request until it gets an answer that is not a connection error or a 5xx (the API process may be down). */
export async function persist(what, send, giveUpAt) {
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    try {
      const res = await send();
      if (res.status < 500) return res;
    } catch {
      /* connection refused or reset: the API process is being killed or restarted */
    }
    if (Date.now() > giveUpAt) throw new Error(`${what}: no answer from the API`);
    await sleep(delay);
  }
}

/**
 * Deletes what the run wrote: instances, attempts, callbacks, notifications (events, messages, deliveries, rules),
 * jobs, audit rows, the API client and Redis keys.
 */
export async function cleanup(db, redis, namespace, appId) {
  for (const table of ['notification_delivery', 'notification', 'notification_event', 'notification_rule'])
    await db.query(`DELETE FROM ${table} WHERE namespace = ?`, [namespace]);
  await db.query('DELETE a FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ?', [
    namespace,
  ]);
  await db.query(
    'DELETE d FROM callback_delivery d JOIN job_instance i ON i.id = d.instance_id WHERE i.namespace = ?',
    [namespace],
  );
  await db.query('DELETE FROM callback_host WHERE namespace = ?', [namespace]);
  await db.query('DELETE FROM job_instance WHERE namespace = ?', [namespace]);
  await db.query('DELETE FROM job_definition WHERE namespace = ?', [namespace]);
  if (appId) {
    await db.query('DELETE FROM callback_registration WHERE app_id = ?', [appId]);
    await db.query('DELETE FROM audit_log WHERE app_id = ?', [appId]).catch(() => undefined);
    await db.query('DELETE FROM api_client WHERE app_id = ?', [appId]).catch(() => undefined);
  }
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `{tw:${namespace}}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== '0');
}
