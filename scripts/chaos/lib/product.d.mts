// Types of scripts/chaos/lib/product.mjs for the TypeScript tests that import it (test/fault).
export function apiClient(env: Record<string, string>, product: string): Promise<{ appId: string; secret: string }>;
export function persist<T extends { status: number }>(
  what: string,
  send: () => Promise<T>,
  giveUpAt: number,
): Promise<T>;
export function cleanup(db: unknown, redis: unknown, namespace: string, appId: string | null): Promise<void>;
