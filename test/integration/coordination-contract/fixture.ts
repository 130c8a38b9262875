import type { ClaimedItem, CoordinationPort, NodeAdvert, ReadyItem } from '../../../src/modules/coordination/index.js';

/** What a contract run needs from one adapter kind; one fixture per test. */
export interface CoordinationFixture {
  /** An adapter scoped to namespace `name`, made unique to this test by the fixture. Same name, same store. */
  open(name?: string): Promise<CoordinationPort>;
  /** Lets `ms` pass for lock and nonce TTLs (a fake clock advances; a real store sleeps). */
  elapse(ms: number): Promise<void>;
  /** Closes what `open` made and deletes its data. */
  dispose(): Promise<void>;
  /**
   * The TTL of the expiry tests and the waits that stay inside it / pass beyond it; {@link FAKE_TIMING} when
   * unset. A store that really sleeps needs room inside the TTL for a loaded machine's scheduling delays.
   */
  timing?: ExpiryTiming;
}

/** TTL used by expiry tests, and waits that stay inside it / pass beyond it. */
export interface ExpiryTiming {
  ttl: number;
  within: number;
  beyond: number;
}

/** For a clock that moves only when told to: any values do. */
export const FAKE_TIMING: ExpiryTiming = { ttl: 200, within: 120, beyond: 300 };

/** Ranks of {@link queued} and {@link of}: rising with every item made, so a test's pushes keep their order. */
let pushed = 0;

/** Ready items of one app (the queue cases below that are not about fairness use a single app). */
export function queued(...ids: string[]): ReadyItem[] {
  return of('app-1', ...ids);
}

/** Ready items of app `appId`, ranked in the order made. */
export function of(appId: string, ...ids: string[]): ReadyItem[] {
  return ids.map((id) => ({ id, appId, rank: ++pushed }));
}

/** The ids of claimed items, in order. */
export function ids(items: ClaimedItem[]): string[] {
  return items.map((item) => item.id);
}

export function advert(overrides: Partial<NodeAdvert> = {}): NodeAdvert {
  return {
    handlers: ['demo'],
    capacity: 4,
    active: 0,
    labels: { zone: 'a' },
    host: 'box-1',
    startedAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** Makes the fixture of one test. */
export type FixtureFactory = () => CoordinationFixture | Promise<CoordinationFixture>;

// The running test's fixture and expiry timing (jest runs one test of a file at a time). Exported as live
// bindings: the contract files read them, only useContract sets them.
export let fixture: CoordinationFixture;
export let TTL = FAKE_TIMING.ttl;
export let WITHIN = FAKE_TIMING.within;
export let BEYOND = FAKE_TIMING.beyond;

/** Opens a fixture and an adapter before each test of the calling describe (`use` keeps the adapter). */
export function useContract(factory: FixtureFactory, use: (port: CoordinationPort) => void): void {
  beforeEach(async () => {
    fixture = await factory();
    ({ ttl: TTL, within: WITHIN, beyond: BEYOND } = fixture.timing ?? FAKE_TIMING);
    use(await fixture.open());
  });

  afterEach(async () => {
    await fixture.dispose();
  });
}
