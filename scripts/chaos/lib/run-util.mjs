// What every part of a chaos run uses: sleeping, waiting on a condition, a bounded pool, the run's log on stderr.

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Writes `s` to stderr as one `[chaos HH:MM:SS.mmm]` line (UTC). */
export const log = (s) => process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 23)}] ${s}\n`);

/** Polls `fn` until it returns true; throws after `timeoutMs` naming `what`. */
export async function waitFor(what, fn, timeoutMs, everyMs = 200) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Runs `fn` over `items` with at most `n` in flight. */
export async function pool(items, n, fn) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}
