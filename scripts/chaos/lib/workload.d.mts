// Types of scripts/chaos/lib/workload.mjs for the TypeScript tests that import it (test/fault).
type Client = () => {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
};
export interface ChaosJob {
  code: string;
  k: number;
  ownCb: boolean;
}
export function createJobs(
  client: Client,
  o: { jobs: number },
  urls: { receiver: { url: string }; callbacks: { url: string } },
): Promise<ChaosJob[]>;
export function pauseJobs(client: Client, jobs: ChaosJob[]): Promise<Map<string, number>>;
