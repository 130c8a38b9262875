// Types of cluster.mjs for the TypeScript tests that import it (test/fault).
import type { Redis } from 'ioredis';

export class ProductSlot {
  constructor(o: {
    repo: string;
    logDir: string;
    name: string;
    role: 'executor' | 'scheduler';
    env: Record<string, string>;
  });
  readonly name: string;
  readonly role: 'executor' | 'scheduler';
  starts: number;
  port: number;
  tail: string[];
  readonly alive: boolean;
  readonly pid: number | null;
  start(timeoutMs?: number): Promise<void>;
  kill(): Promise<void>;
  stop(graceMs?: number): Promise<void>;
  child: import('node:child_process').ChildProcess | null;
}
export function leaderPid(redis: Redis, namespace: string): Promise<number | null>;
