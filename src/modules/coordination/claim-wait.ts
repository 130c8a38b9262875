import { performance } from 'node:perf_hooks';
import type { ClaimedItem, ClaimShare } from './coordination.port.js';
import { checkShare } from './port-args.js';

/** One try of a claim: the ids it took, and whether an app with ids left was passed over for its cap. */
export interface ClaimTry {
  items: ClaimedItem[];
  capped: boolean;
}

/** What an adapter's node queue gives {@link claimWithWait}. */
export interface ClaimSteps {
  /** One atomic try, taking up to `max` ids. */
  tryOnce(max: number): Promise<ClaimTry>;
  /** Resolves on a push to the node, after `ms`, or when `freed` aborts. */
  waitPush(ms: number, freed?: AbortSignal): Promise<void>;
  /** True once the adapter is closed: the claim ends with what the last try took. */
  closed(): boolean;
}

/**
 * claimMany for both adapters (`max < 1` takes nothing): try; when nothing was taken, wait for a push (at most
 * the time left) and try again until `timeoutMs`. When only the cap held work back, an aborted `share.freed`
 * ends the claim with [] and no further try: the caller claims again with its counts and free slots as of then.
 */
export async function claimWithWait(
  steps: ClaimSteps,
  max: number,
  timeoutMs: number,
  share: ClaimShare | undefined,
): Promise<ClaimedItem[]> {
  checkShare(share);
  const { tryOnce, waitPush, closed } = steps;
  if (closed() || !(max >= 1)) return [];
  const n = Math.floor(max);
  const deadline = performance.now() + (timeoutMs > 0 ? timeoutMs : 0);
  for (;;) {
    const { items, capped } = await tryOnce(n);
    if (items.length > 0 || closed()) return items;
    if (capped && share?.freed?.aborted) return [];
    const left = deadline - performance.now();
    if (!(left > 0)) return [];
    await waitPush(left, capped ? share?.freed : undefined);
    // A slot came back: the caller claims again, for all the slots it has free by then (not this call's `max`).
    if (capped && share?.freed?.aborted) return [];
  }
}

/** Settles with `event`, or resolves after `ms` or on `signal`, whichever is first; leaves no timer or listener. */
export function untilFirst(event: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const finish = (error?: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => finish();
    const timer = setTimeout(onAbort, ms);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    event.then(
      () => finish(),
      (error: unknown) => finish(error ?? new Error('wait failed')),
    );
  });
}
