// Types of product.mjs for the TypeScript tests that import it (test/fault).
import type { Pool } from 'mysql2/promise';
import type { Redis } from 'ioredis';

export function snapshotProduct(dir: string): Promise<string>;
export function apiClient(env: Record<string, string>, product: string): Promise<{ appId: string; secret: string }>;
export function persist<T extends { status: number }>(
  what: string,
  send: () => Promise<T>,
  giveUpAt: number,
): Promise<T>;
export function cleanup(db: Pool, redis: Redis, namespace: string, appId: string | null): Promise<void>;
