import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { advanceSettled, settle } from '../../../test/fakes/settle.js';
import type { AppConfig } from '../../config/index.js';
import type { DelayFeed, NodeQueuePort } from '../coordination/index.js';
import type { InstanceReads, InstanceTransitions } from '../metadata/index.js';
import { DRAIN_REPORT_MS, ShutdownDrain } from './shutdown-drain.js';
import type { RunningAttempt, TaskRunner } from './task-runner.service.js';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const GRACE_MS = 10_000;

/** The drain on a FakeClock: what it says while running work drains (docs/execution.md "Graceful shutdown"). */
describe('ShutdownDrain.awaitRunning', () => {
  let clock: FakeClock;
  let running: Map<string, RunningAttempt>;
  let sut: ShutdownDrain;
  let said: string[];

  const attempt = (id: string, handler: string): RunningAttempt => ({
    instanceId: id,
    handler,
    fencingToken: 1,
    controller: new AbortController(),
  });

  beforeEach(() => {
    clock = new FakeClock(T0);
    running = new Map([
      ['a#1', attempt('a', 'http')],
      ['b#1', attempt('b', 'http')],
      ['c#1', attempt('c', 'shell')],
    ]);
    said = [];
    const record = (m: unknown) => void said.push(`${clock.now() - T0}: ${String(m)}`);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(record);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(record);
    const config = { executorShutdownGraceMs: GRACE_MS } as AppConfig;
    sut = new ShutdownDrain(
      { running } as unknown as TaskRunner,
      {} as InstanceReads,
      {} as InstanceTransitions,
      {} as NodeQueuePort,
      {} as DelayFeed,
      config,
      clock,
    );
  });

  afterEach(() => jest.restoreAllMocks());

  it('should say at once and every DRAIN_REPORT_MS what it waits for (handlers) and the grace left', async () => {
    const done = sut.awaitRunning(
      () => running.size,
      () => undefined,
    );
    await settle();
    await advanceSettled(clock, T0 + 4_500);
    running.delete('a#1');
    running.delete('b#1');
    running.delete('c#1');
    await advanceSettled(clock, T0 + 5_000);
    expect(await done).toEqual({ running: 3, aborted: 0 });
    expect(said).toEqual(
      [0, DRAIN_REPORT_MS, 2 * DRAIN_REPORT_MS].map(
        (t) =>
          `${t}: shutdown: waiting for 3 attempt(s) (handlers http ×2, shell ×1); ${GRACE_MS - t} ms of the ` +
          `${GRACE_MS} ms grace left`,
      ),
    );
  });

  it('should say what it aborts when the grace is over, and keep saying what has not returned', async () => {
    const done = sut.awaitRunning(
      () => running.size,
      () => running.delete('a#1'),
    );
    await settle();
    await advanceSettled(clock, T0 + GRACE_MS + 2 * DRAIN_REPORT_MS + 100);
    running.clear();
    await advanceSettled(clock, T0 + GRACE_MS + 3 * DRAIN_REPORT_MS);
    expect(await done).toEqual({ running: 3, aborted: 3 });
    const after = said.filter((m) => !m.includes('grace left'));
    expect(after[0]).toMatch(/^10000: shutdown: grace over, aborting 3 attempt\(s\) \(handlers http ×2, shell ×1\)$/);
    expect(after.slice(1).map((m) => m.split(':')[0])).toEqual(['12000', '14000']);
    expect(after[1]).toContain('still waiting for 2 attempt(s) (handlers http ×1, shell ×1) to return, 2000 ms after');
  });
});
