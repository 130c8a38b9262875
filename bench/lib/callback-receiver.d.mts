// Types of bench/lib/callback-receiver.mjs for the TypeScript tests that import it (test/fault).
export function startCallbackReceiver(o: {
  verify: (headers: object, raw: Buffer) => { ok: boolean; reason?: string };
  answer?: () => number;
  blackHole?: boolean;
}): Promise<{ url: string; port: number; log: unknown[]; close(): Promise<void> }>;
