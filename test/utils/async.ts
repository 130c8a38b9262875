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

/** Polls `fn` every `everyMs` until it returns true or `timeoutMs` passes. @throws on timeout, with `what`. */
export async function waitFor(what: string, fn: () => Promise<boolean>, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
