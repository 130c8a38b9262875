// Types of scripts/chaos/lib/cluster.mjs for the TypeScript tests that import it (test/fault).
export class ProductSlot {
  constructor(o: {
    repo: string;
    logDir: string;
    name: string;
    role: 'executor' | 'scheduler';
    env: Record<string, string>;
  });
  readonly alive: boolean;
  readonly pid: number | null;
  port: number;
  tail: string[];
  start(timeoutMs?: number): Promise<void>;
  kill(): Promise<void>;
  stop(graceMs?: number): Promise<void>;
}
export function leaderPid(
  redis: { get(key: string): Promise<string | null> },
  namespace: string,
): Promise<number | null>;
