import { performance } from 'node:perf_hooks';
import type { ClaimedItem, ClaimShare } from './coordination.port.js';

/** What one try of a claim did: the ids it took, and whether an app with ids left was passed over for its cap. */
export interface ClaimTry {
  items: ClaimedItem[];
  capped: boolean;
}

/**
 * The waiting part of CoordinationPort.claimMany, the same in both adapters: try; when nothing was taken,
 * wait for a push to the node (`waitPush`, at most the time left, ms) and try again, until `timeoutMs`
 * has passed. When only the cap held work back, the wait also ends on `share.freed`, and an aborted
 * `share.freed` ends the claim (with [], without another try): the caller has a slot back and claims
 * again with fresh counts and its free slots as they are then.
 * @param closed true once the adapter is closed: the claim ends with what the last try took.
 */
export async function claimWithWait(
  tryOnce: () => Promise<ClaimTry>,
  waitPush: (ms: number, freed?: AbortSignal) => Promise<void>,
  timeoutMs: number,
  share: ClaimShare | undefined,
  closed: () => boolean,
): Promise<ClaimedItem[]> {
  const deadline = performance.now() + (timeoutMs > 0 ? timeoutMs : 0);
  for (;;) {
    const { items, capped } = await tryOnce();
    if (items.length > 0 || closed()) return items;
    if (capped && share?.freed?.aborted) return [];
    const left = deadline - performance.now();
    if (!(left > 0)) return [];
    await waitPush(left, capped ? share?.freed : undefined);
    // A slot came back: the caller claims again, for all the slots it has free by then (not this call's `max`).
    if (capped && share?.freed?.aborted) return [];
  }
}

/**
 * Settles when `event` does (rejecting with it), or resolves after `ms` or when `signal` aborts, whichever
 * comes first; leaves no timer or listener behind.
 */
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
    event.then(() => finish(), (error: unknown) => finish(error ?? new Error('wait failed')));
  });
}
