/**
 * Runs `fn` (sync or async) and measures it. Time limits in tests are about the computation (no CPU spin,
 * no hang), so check them on CPU time (user + system of this process), which a loaded machine does not
 * stretch by preempting the test as it does wall time; give wall time a loose bound of its own (no blocking).
 */
export function measured<T>(fn: () => T): { value: T; cpuMs: number; wallMs: number } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(cpu);
  return { value, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall };
}

/** {@link measured} for an async `fn`: the time until its promise settles. */
export async function measuredAsync<T>(fn: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall };
}
