// Types of run-util.mjs for the TypeScript tests that import it (test/fault).
export function sleep(ms: number): Promise<void>;
export function log(s: string): void;
export function waitFor(what: string, fn: () => Promise<boolean>, timeoutMs: number, everyMs?: number): Promise<void>;
export function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void>;
