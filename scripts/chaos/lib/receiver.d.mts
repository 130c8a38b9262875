// Types of receiver.mjs for the TypeScript tests that import it (test/fault).
export interface SideEffect {
  requestId: string;
  instanceId: string;
  attempt: number;
  token: number;
  at: number;
  path: string;
}
export function startReceiver(o: { workMs: () => number }): Promise<{
  url: string;
  log: SideEffect[];
  onEffect: (fn: (e: SideEffect) => void) => void;
  close: () => Promise<void>;
}>;
