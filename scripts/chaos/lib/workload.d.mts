// Types of workload.mjs for the TypeScript tests that import it (test/fault).
import type { TickwheelClient } from '../../../src/client/tickwheel-client.js';

export interface ChaosJob {
  code: string;
  k: number;
  ownCb: boolean;
}
export interface WorkloadOptions {
  jobs: number;
  tasks: number;
  duration: number;
  'delayed-share': number;
  'fail-share': number;
  rand: () => number;
  between: (lo: number, hi: number) => number;
}
type Client = () => TickwheelClient;
export function createJobs(
  client: Client,
  o: WorkloadOptions,
  to: { receiver: { url: string }; callbacks: { url: string } },
): Promise<ChaosJob[]>;
export function submitTasks(
  client: Client,
  o: WorkloadOptions,
  to: { namespace: string; receiver: { url: string }; callbacks: { url: string }; t0: number },
): { taskIds: string[]; ownCallback: Set<string>; failing: Set<string>; done: Promise<void> };
export function pauseJobs(client: Client, jobs: ChaosJob[]): Promise<Map<string, number>>;
