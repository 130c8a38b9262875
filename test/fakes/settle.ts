import type { FakeClock } from './fake-clock.js';

/** Lets `turns` rounds of pending promise callbacks run (what an awaited stub's answer needs to arrive). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

/**
 * Runs the callbacks of `clock` due at or before `toMs` one at a time, settling promises after each (so a
 * loop whose round awaits stubs finishes that round before the next fires), then sets now to `toMs`.
 */
export async function advanceSettled(clock: FakeClock, toMs: number): Promise<void> {
  while (clock.nextAtMs !== null && clock.nextAtMs <= toMs) {
    clock.runNext();
    await settle();
  }
  clock.setNow(toMs);
}

/** A promise the test settles by hand: `wait` resolves once `open()` was called (a stub held mid-call). */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}
