// Types of verdict.mjs for the TypeScript tests that import it (test/fault).
import type { Pool } from 'mysql2/promise';
import type { SideEffect } from './receiver.mjs';

export const FINAL: Set<string>;
export const LOST: Set<string>;
export function judge(
  pool: Pool,
  run: {
    namespace: string;
    taskIds: string[];
    failing: Set<string>;
    stopAt: number;
    pausedAt: Map<string, number>;
    log: SideEffect[];
  },
): Promise<{ ok: boolean; counts: Record<string, number>; examples: string[] }>;
