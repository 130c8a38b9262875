import { Test } from '@nestjs/testing';
import { DiscoveryModule } from '@nestjs/core';
import { CLOCK, SystemClock } from '../../../common/index.js';
import { APP_CONFIG, loadConfig } from '../../../config/index.js';
import { ShellIdentityRepository } from '../../metadata/index.js';
import { EgressModule } from '../../egress/index.js';
import { MetricsService } from '../../observability/index.js';
import { builtinHandlers } from '../execution.module.js';
import { HandlerRegistry } from '../handler-registry.service.js';
import type { JobContext } from '../../handler/index.js';
import { checkBuiltinParams } from './builtin-params.js';
import { NoopJobHandler, parseNoopParams } from './noop.handler.js';
import { measuredAsync } from '../../../../test/utils/measured.js';

/** A context that throws on any use beyond its params: without report params the noop handler touches nothing. */
const untouchable = new Proxy({} as JobContext, {
  get: (_t, key) => {
    if (key === 'params') return { other: 1 };
    throw new Error(`noop read ctx.${String(key)}`);
  },
});

async function registeredNames(opts: Parameters<typeof builtinHandlers>[0]): Promise<string[]> {
  // The shell handler checks its run-as user at init (UNISOLATED lets it start on a non-root machine too); the
  // cluster shape keeps it off a standalone DATA_DIR. Nothing connects to these URLs.
  const settings = {
    DB_URL: 'mysql://u@127.0.0.1/x',
    REDIS_URL: 'redis://127.0.0.1',
    TICKWHEEL_SECRET_KEY: 'a'.repeat(64),
    TICKWHEEL_SHELL_UNISOLATED: 'true',
  };
  const loaded = loadConfig({ ...settings, TICKWHEEL_ALLOW_SHELL: String(opts?.shell ?? false) });
  const config = { provide: APP_CONFIG, useValue: loaded };
  const mod = await Test.createTestingModule({
    imports: [DiscoveryModule, EgressModule.forConfig(loaded)],
    providers: [
      config,
      MetricsService,
      HandlerRegistry,
      ...builtinHandlers(opts),
      { provide: ShellIdentityRepository, useValue: {} }, // the shell handler's apps' uids: never read here
      { provide: CLOCK, useValue: new SystemClock() },
    ],
  }).compile();
  await mod.init();
  const names = mod.get(HandlerRegistry).names();
  seriesAtZero = (await mod.get(MetricsService).executionSeconds.get()).values
    .filter((v) => v.metricName === 'tickwheel_execution_duration_seconds_count' && v.value === 0)
    .map((v) => `${v.labels.handler} ${v.labels.outcome}`);
  await mod.close();
  return names;
}

/** The execution duration series (handler and outcome) the last registry booted exported at 0. */
let seriesAtZero: string[] = [];

describe('NoopJobHandler', () => {
  it('should succeed at once with a tiny constant result, whatever the params', async () => {
    const handler = new NoopJobHandler();
    const { value: result, cpuMs, wallMs } = await measuredAsync(() => handler.execute(untouchable));
    expect(cpuMs).toBeLessThan(50); // CPU time: a loaded machine preempting the test does not count
    expect(wallMs).toBeLessThan(1000);
    expect(result).toEqual({ ok: true });
    expect(JSON.stringify(result).length).toBeLessThan(16);
    expect(await handler.execute(untouchable)).toEqual(result);
  });

  it('should report progress and store a checkpoint when its params ask for them', async () => {
    const calls: string[] = [];
    const ctx = {
      params: { progress: true, checkpoint: true },
      progress: (f: number, note?: string) => calls.push(`progress ${f} ${note}`),
      checkpoint: async (state: unknown) => void calls.push(`checkpoint ${JSON.stringify(state)}`),
    } as unknown as JobContext;
    expect(await new NoopJobHandler().execute(ctx)).toEqual({ ok: true });
    expect(calls).toEqual(['progress 1 noop', 'checkpoint {"noop":true}']);
  });

  it('should refuse report params that are not booleans, naming the field', () => {
    expect(() => parseNoopParams({ progress: 'yes' })).toThrow(/must be a boolean/);
    expect(() => parseNoopParams({ checkpoint: 1 })).toThrow(expect.objectContaining({ field: 'params.checkpoint' }));
    expect(parseNoopParams({ progress: true, x: 'ignored' })).toEqual({ progress: true, checkpoint: false });
  });

  it('should refuse a sleepMs that is not an integer from 0 to 60,000 on submit, naming the field', () => {
    for (const bad of [-1, 60_001, 1.5, '10', null, Number.NaN])
      expect(() => checkBuiltinParams('noop', { sleepMs: bad })).toThrow(
        expect.objectContaining({ field: 'params.sleepMs' }),
      );
    expect(parseNoopParams({ sleepMs: 0 })).toEqual({ sleepMs: 0, progress: false, checkpoint: false });
    expect(parseNoopParams({ sleepMs: 60_000 }).sleepMs).toBe(60_000);
  });

  it('should wait sleepMs before it succeeds', async () => {
    const ctx = { params: { sleepMs: 60 }, signal: new AbortController().signal } as unknown as JobContext;
    const t = performance.now();
    expect(await new NoopJobHandler().execute(ctx)).toEqual({ ok: true });
    expect(performance.now() - t).toBeGreaterThanOrEqual(55); // timers may fire a ms early on some clocks
  });

  it('should end its sleep with an AbortError as soon as its signal fires', async () => {
    const controller = new AbortController();
    const ctx = { params: { sleepMs: 60_000 }, signal: controller.signal } as unknown as JobContext;
    const t = performance.now();
    const run = new NoopJobHandler().execute(ctx);
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - t).toBeLessThan(5_000);
  });

  it('should be registered under the name noop with or without the other built-ins', async () => {
    expect(await registeredNames({ http: false, shell: false })).toEqual(['noop']);
    expect(await registeredNames({})).toEqual(['http', 'noop']);
    expect(await registeredNames({ http: true, shell: true })).toEqual(['http', 'noop', 'shell']);
  });

  it("should start each registered handler's execution duration series at 0 for every outcome", async () => {
    await registeredNames({});
    const outcomes = ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED', 'HANDED_BACK'];
    expect(seriesAtZero.sort()).toEqual(['http', 'noop'].flatMap((h) => outcomes.map((o) => `${h} ${o}`)).sort());
  });
});
