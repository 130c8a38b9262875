import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock } from '../../../common/index.js';
import { type UidRange } from '../../../config/index.js';
import { ShellIdentityRepository, withDbRetry } from '../../metadata/index.js';

/** How long each database step of an allocation is retried through transient errors before the run fails. */
const DB_RETRY_MS = 5_000;
/** Inserts lost to other executors' before giving up (each loss means another app got a uid meanwhile). */
const MAX_TRIES = 100;
const MAX_APPS = 10_000;

/** Why an app has no usable uid: the range is full, or its recorded uid lies outside the range. Not retried. */
export class ShellIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellIdentityError';
  }
}

/**
 * Each app's shell uid (= gid; docs/tenancy.md "Shell isolation"): read from shell_identity, or allocated there the
 * first time one of the app's commands runs, then kept in memory (a recorded uid never changes). Allocation takes a
 * free uid of `range` and inserts it; a lost race (the app or the uid taken by another executor meanwhile) reads
 * again. A uid is never handed to a second app, and never freed.
 */
@Injectable()
export class ShellIdentities {
  private readonly known = new LRUCache<string, number>({ max: MAX_APPS });
  private readonly allocating = new Map<string, Promise<number>>();

  constructor(
    private readonly repo: ShellIdentityRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * `appId`'s uid, allocated from `range` when it has none yet.
   * @throws ShellIdentityError naming TICKWHEEL_SHELL_UID_RANGE when the range is full or does not hold the app's
   *   recorded uid; the database's error once its retries are spent.
   */
  async uidOf(appId: string, range: UidRange): Promise<number> {
    const uid = this.known.get(appId) ?? (await this.once(appId, range));
    if (uid < range.lo || uid > range.hi) {
      throw new ShellIdentityError(
        `app '${appId}' runs shell commands as uid ${uid} (shell_identity), outside TICKWHEEL_SHELL_UID_RANGE ` +
          `${range.lo}-${range.hi}: widen the range to hold it (a uid is never given to another app)`,
      );
    }
    return uid;
  }

  /** One allocation per app at a time in this process; the others wait for its answer. */
  private once(appId: string, range: UidRange): Promise<number> {
    let run = this.allocating.get(appId);
    if (!run) {
      run = this.allocate(appId, range).finally(() => this.allocating.delete(appId));
      this.allocating.set(appId, run);
    }
    return run;
  }

  private async allocate(appId: string, range: UidRange): Promise<number> {
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const recorded = await withDbRetry(() => this.repo.uidOf(appId), DB_RETRY_MS);
      if (recorded !== null) return this.keep(appId, recorded);
      const free = await withDbRetry(() => this.repo.freeUid(range.lo, range.hi), DB_RETRY_MS);
      if (free === null) {
        throw new ShellIdentityError(
          `TICKWHEEL_SHELL_UID_RANGE ${range.lo}-${range.hi} is full: every uid of it belongs to an app ` +
            `(uids are never reused); widen the range to run app '${appId}'s shell commands`,
        );
      }
      // A duplicate app id or uid means another executor inserted first: read again.
      if (await withDbRetry(() => this.repo.tryInsert(appId, free, this.clock.now()), DB_RETRY_MS))
        return this.keep(appId, free);
    }
    throw new Error(`could not record a shell uid for app '${appId}': ${MAX_TRIES} inserts lost to other executors`);
  }

  private keep(appId: string, uid: number): number {
    this.known.set(appId, uid);
    return uid;
  }
}

/**
 * The first id of `range` that the user namespace map `mapText` (/proc/self/uid_map or gid_map: `inside outside
 * count` lines) does not hold, or null when all are mapped. In a user-namespaced container (rootless Docker or
 * Podman, Kubernetes `hostUsers: false`) usually only 0-65535 are, and a command cannot switch to any other id.
 */
export function firstUnmapped(range: UidRange, mapText: string): number | null {
  const spans = mapText
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter((f) => f.length === 3 && f.every((n) => Number.isFinite(n)))
    .map(([inside, , count]) => ({ from: inside, to: inside + count - 1 }))
    .sort((a, b) => a.from - b.from);
  let next = range.lo;
  for (const s of spans) {
    if (s.from > next) break;
    if (s.to >= next) next = s.to + 1;
    if (next > range.hi) return null;
  }
  return next;
}

/**
 * The first account of `range` in `accountsText` (/etc/passwd or /etc/group: `name:x:id:...` lines), as
 * `name (id)`, or null. A range holding a system or login account would run some app's commands as it.
 */
export function firstAccountIn(range: UidRange, accountsText: string): string | null {
  for (const line of accountsText.split('\n')) {
    const [name, , idText] = line.split(':');
    const id = Number(idText);
    if (idText && /^\d+$/.test(idText) && id >= range.lo && id <= range.hi) return `${name} (${id})`;
  }
  return null;
}
