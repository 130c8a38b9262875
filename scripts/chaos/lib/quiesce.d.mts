// Types of quiesce.mjs for the TypeScript tests that import it (test/fault).
import type { Pool } from 'mysql2/promise';
import type { Redis } from 'ioredis';
import type { TickwheelClient } from '../../../src/client/tickwheel-client.js';
import type { ProductSlot } from './cluster.mjs';
import type { ChaosJob } from './workload.mjs';

export function stopSchedules(o: {
  db: Pool;
  redis: Redis;
  namespace: string;
  schedulers: ProductSlot[];
  client: () => TickwheelClient;
  jobs: ChaosJob[];
}): Promise<{ stopAt: number; pausedAt: Map<string, number> }>;
export function noneLeft(db: Pool, what: string, sql: string, params: unknown[], timeoutMs: number): Promise<boolean>;
export function unfinished(namespace: string): [string, unknown[]];
