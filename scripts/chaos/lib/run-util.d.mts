// Types of scripts/chaos/lib/run-util.mjs for the TypeScript tests that import it (test/fault).
export function sleep(ms: number): Promise<void>;
export function log(s: string): void;
export function waitFor(
  what: string,
  fn: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs?: number,
): Promise<void>;
