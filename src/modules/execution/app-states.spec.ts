import { clockAt } from '../../../test/fakes/fake-clock.js';
import type { SignalPort } from '../coordination/index.js';
import type { ApiClient, ApiClientRepository } from '../metadata/index.js';
import { APP_STATES_TTL_MS, AppStates } from './app-states.js';

/** A read of the client table that stays pending until the test settles it. */
interface Read {
  appId: string;
  resolve(client: Partial<ApiClient> | null): void;
}

function setUp() {
  let now = 1_000_000;
  const reads: Read[] = [];
  let onChange: (appId: string) => void = () => undefined;
  const clients = {
    findByAppId: (appId: string) =>
      new Promise<ApiClient | null>((resolve) => reads.push({ appId, resolve: (c) => resolve(c as ApiClient) })),
  } as unknown as ApiClientRepository;
  const signals = {
    subscribe: async (_: string, listener: (m: string) => void) => {
      onChange = listener;
      return async () => undefined;
    },
  } as unknown as SignalPort;
  const states = new AppStates(
    clients,
    signals,
    clockAt(() => now),
  );
  return {
    states,
    reads,
    at: (ms: number) => (now = 1_000_000 + ms),
    change: (appId: string) => onChange(appId),
  };
}

/** Whether `p` settles within a few turns of the event loop (nothing here waits on a timer). */
async function settlesNow<T>(p: Promise<T>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
}

describe('AppStates (docs/tenancy.md "Disabled clients")', () => {
  it('should let callers that miss an app share one read', async () => {
    const { states, reads } = setUp();
    const a = states.factsOf('app');
    const b = states.disabledAmong(['app']);
    expect(reads).toHaveLength(1);
    reads[0].resolve({ enabled: false, scopes: [] });
    expect((await a).enabled).toBe(false);
    expect(await b).toEqual(new Set(['app']));
  });

  it('should serve a copy past half the TTL at once and renew it meanwhile (a busy app never waits)', async () => {
    const { states, reads, at } = setUp();
    const first = states.factsOf('app');
    reads[0].resolve({ enabled: true, scopes: [] });
    await first;
    at(APP_STATES_TTL_MS * 0.6);
    expect(await settlesNow(states.factsOf('app'))).toBe(true);
    expect(await settlesNow(states.factsOf('app'))).toBe(true);
    expect(reads).toHaveLength(2); // one renewal, shared
    reads[1].resolve({ enabled: false, scopes: [] });
    await new Promise((r) => setImmediate(r));
    // Past the first copy's TTL: the renewed copy (read at 0.6 TTL) answers, with no read to wait for.
    at(APP_STATES_TTL_MS * 1.2);
    const late = states.factsOf('app');
    expect(await settlesNow(late)).toBe(true);
    expect((await late).enabled).toBe(false);
  });

  it('should wait for a read once the copy is older than the TTL', async () => {
    const { states, reads, at } = setUp();
    const first = states.factsOf('app');
    reads[0].resolve({ enabled: true, scopes: [] });
    await first;
    at(APP_STATES_TTL_MS);
    const stale = states.factsOf('app');
    expect(await settlesNow(stale)).toBe(false);
    reads[1].resolve({ enabled: false, scopes: [] });
    expect((await stale).enabled).toBe(false);
  });

  it('should not keep what a read in flight during a change message returns: the next caller reads anew', async () => {
    const { states, reads, change } = setUp();
    await states.onModuleInit();
    const before = states.factsOf('app');
    change('app');
    const after = states.factsOf('app');
    expect(reads).toHaveLength(2);
    reads[0].resolve({ enabled: true, scopes: [] });
    reads[1].resolve({ enabled: false, scopes: [] });
    expect((await before).enabled).toBe(true);
    expect((await after).enabled).toBe(false);
    expect((await states.factsOf('app')).enabled).toBe(false);
    expect(reads).toHaveLength(2);
  });
});
