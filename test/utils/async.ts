/** A signal that never aborts. */
export const never = (): AbortSignal => new AbortController().signal;

/** Awaits `p` and returns its rejection; throws when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

/**
 * Resolves after `ms` milliseconds. For waits that let time pass on purpose ("nothing happens within X ms",
 * pacing a storm); to wait for something to happen, use {@link waitFor}.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `fn` every `everyMs` until it returns true or `timeoutMs` passes. @throws on timeout, with `what`. */
export async function waitFor(
  what: string,
  fn: () => Promise<boolean>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
