import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { GroupCommitter, newId } from '../../../common/index.js';
import { UnitOfWork } from '../unit-of-work/unit-of-work.js';
import { CallbackDelivery, CallbackState } from '../entities/index.js';
import { insertIgnoreVerb, marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';
import { deleteByIds } from './retention-rows.js';
import { type FinalInstance, NotificationEventRepository } from './notification-event.repository.js';

/** An instance that has just reached a final state, as its writer holds it (the columns the outbox needs). */
export type { FinalInstance };

/** callback_delivery.host's length. */
const HOST_MAX = 300;

/** `host:port` of an http(s) URL, lower case, the default port explicit; null for anything else or over 300 chars. */
export function callbackHostOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const host = `${u.hostname.toLowerCase()}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  // Longer than its column: no delivery, rather than a finishing write that fails for ever.
  return host.length <= HOST_MAX ? host : null;
}

/**
 * What a redelivery writes over a delivery at `now` (epoch ms): PENDING, no tries, due now, unclaimed, and its age
 * (`final_at`, what CALLBACK_MAX_AGE_MS and the latency count from) restarted, or an old one would expire at once.
 */
export function redelivered(now: number): Partial<CallbackDelivery> {
  return {
    finalAt: now,
    state: CallbackState.PENDING,
    attempts: 0,
    nextAttemptAt: now,
    claim: null,
    leaseUntil: null,
    lastStatusCode: null,
    lastError: null,
    deliveredAt: null,
    updatedAt: now,
  };
}

interface SettleItem {
  id: string;
  claim: string;
  patch: DeliveryPatch;
  now: number;
}

/** An app's receiving `host:port`: the unit of the per-host share and of "host down". */
export interface DuePair {
  appId: string;
  host: string;
}

/** A due delivery as the claim's candidate SELECT returns it. */
export interface DueDelivery extends DuePair {
  id: string;
}

/** The columns a try's outcome writes (docs/callbacks.md "Outcome of a try"). */
export type DeliveryPatch = Partial<
  Pick<CallbackDelivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'deliveredAt'>
>;

export const DUE_STATES = [CallbackState.PENDING, CallbackState.RETRYING];

/** Which deliveries a list reads: of `namespace`, of app `appId` (null: every app), in `state` when given. */
export interface DeliveryFilter {
  namespace: string;
  appId: string | null;
  state?: CallbackState;
}

/** A delivery as a list shows it, with its instance's request id and job (null: the instance is gone). */
export interface ListedDelivery {
  delivery: CallbackDelivery;
  requestId: string | null;
  jobId: string | null;
}

const COLUMNS = [
  'id',
  'namespace',
  'instance_id',
  'app_id',
  'url',
  'host',
  'state',
  'attempts',
  'next_attempt_at',
  'final_at',
  'created_at',
  'updated_at',
];

/**
 * The callback outbox (docs/callbacks.md "Outbox"): `callback_delivery` rows. {@link enqueueFinal} runs inside
 * the transaction that writes the final states, so a delivery exists exactly when its final state committed.
 */
@Injectable()
export class CallbackDeliveryRepository {
  private readonly uow: UnitOfWork;
  /** Tries' outcomes are written in group commits: one commit per try made the log flush the senders' limit. */
  private readonly settles = new GroupCommitter<SettleItem, boolean>((items) => this.settleGroup(items), 256);

  /** The other outbox written with a final state: notification events (docs/notifications.md "Events"). */
  private readonly events: NotificationEventRepository;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.uow = UnitOfWork.for(ds);
    this.events = new NotificationEventRepository(ds);
  }

  /**
   * Writes the delivery rows of instances that reached a final state at `now` (epoch ms) inside `em`: the URL is
   * the instance's own (a task's, or its job's copied at fire time), else the app's registration for the
   * instance's handler, else the app's default; an instance with none gets no row. INSERT IGNORE on the unique
   * instance id: a retried finishing write cannot make a second delivery. The notification events of the same
   * finals are written here too, so every writer of a final state writes both outboxes. @returns the rows written.
   */
  async enqueueFinal(em: EntityManager, finals: readonly FinalInstance[], now: number): Promise<number> {
    if (finals.length === 0) return 0;
    await this.events.enqueueFinal(em, finals, now);
    const unresolved = [...new Set(finals.filter((f) => !f.callbackUrl).map((f) => f.appId))];
    const registered = unresolved.length > 0 ? await this.registrationsOf(em, unresolved) : new Map();
    const rows: unknown[][] = [];
    for (const f of finals) {
      const url = f.callbackUrl ?? registered.get(`${f.appId}\n${f.handler}`) ?? registered.get(`${f.appId}\n`);
      const host = url ? callbackHostOf(url) : null;
      if (!url || !host) continue;
      rows.push([newId(), f.namespace, f.id, f.appId, url, host, CallbackState.PENDING, 0, now, now, now, now]);
    }
    let written = 0;
    for (let i = 0; i < rows.length; i += STATEMENT_ROWS) {
      const part = rows.slice(i, i + STATEMENT_ROWS);
      const sql =
        `${insertIgnoreVerb(this.ds)} INTO callback_delivery (${COLUMNS.join(', ')}) VALUES ` +
        part.map(() => `(${marks(COLUMNS.length)})`).join(', ');
      written += Number((await runStatement(this.ds, em, sql, part.flat())).affected ?? 0);
    }
    return written;
  }

  /** The delivery of each of `instanceIds` that has one, by instance id. */
  async findByInstances(instanceIds: string[], em?: EntityManager): Promise<Map<string, CallbackDelivery>> {
    const out = new Map<string, CallbackDelivery>();
    const repo = (em ?? this.ds.manager).getRepository(CallbackDelivery);
    for (let i = 0; i < instanceIds.length; i += 1000) {
      for (const d of await repo.findBy({ instanceId: In(instanceIds.slice(i, i + 1000)) })) out.set(d.instanceId, d);
    }
    return out;
  }

  /**
   * Sends delivery `id` again from the start (docs/callbacks.md "Redeliver"): PENDING, no tries, due `now`, its
   * claim dropped (a sender still holding it loses its write); inside `em` when given. @returns false when there
   * is no such row.
   */
  async redeliver(id: string, now: number, em?: EntityManager): Promise<boolean> {
    const res = await (em ?? this.ds.manager).getRepository(CallbackDelivery).update({ id }, redelivered(now));
    return (res.affected ?? 0) > 0;
  }

  /**
   * Up to `limit` due deliveries of `namespace` (docs/callbacks.md "Sender" "Claim"): PENDING or RETRYING,
   * `next_attempt_at <= now`, lease free or expired, their (app, host) not in `skip` (pairs the caller has no room
   * for), oldest due first; a down pair's are left to the caller (they are failed fast, or wait for their probe,
   * not due). @returns `{id, appId, host}`.
   */
  async dueCandidates(namespace: string, now: number, limit: number, skip: readonly DuePair[]): Promise<DueDelivery[]> {
    const skipped = skip.length > 0 ? ` AND NOT (${skip.map(() => '(d.app_id = ? AND d.host = ?)').join(' OR ')})` : '';
    const sql =
      `SELECT d.id, d.app_id, d.host FROM callback_delivery d WHERE d.namespace = ? AND d.state IN (?, ?)` +
      ` AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)${skipped}` +
      ` ORDER BY d.next_attempt_at LIMIT ${Math.max(1, Math.floor(limit))}`;
    const params = [namespace, ...DUE_STATES, now, now, ...skip.flatMap((p) => [p.appId, p.host])];
    const rows = (await this.ds.query(sql, params)) as Array<Record<string, unknown>>;
    return rows.map((r) => ({ id: String(r.id), appId: String(r.app_id), host: String(r.host) }));
  }

  /**
   * Claims those of `ids` that are still waiting and free (conditional UPDATE, one statement): sets `claim` and
   * `lease_until = now + leaseMs`. `dueOnly` also asks `next_attempt_at <= now` (a probe does not). @returns the
   * rows this claim holds, read back by claim.
   */
  async claim(
    ids: readonly string[],
    claim: string,
    now: number,
    leaseMs: number,
    dueOnly = true,
  ): Promise<CallbackDelivery[]> {
    if (ids.length === 0) return [];
    const due = dueOnly ? ' AND next_attempt_at <= ?' : '';
    const sql =
      `UPDATE callback_delivery SET claim = ?, lease_until = ?, updated_at = ? WHERE id IN (${marks(ids.length)})` +
      ` AND state IN (?, ?) AND (lease_until IS NULL OR lease_until < ?)${due}`;
    const params = [claim, now + leaseMs, now, ...ids, ...DUE_STATES, now, ...(dueOnly ? [now] : [])];
    const res = await runStatement(this.ds, undefined, sql, params);
    if (!res.affected) return [];
    return this.ds.getRepository(CallbackDelivery).findBy({ claim });
  }

  /**
   * Writes the outcome of a try over delivery `id` (group-committed) only while `claim` still holds it; the claim
   * and lease are dropped with it. @returns false when the claim was lost (lease expired, redeliver): nothing
   * written.
   */
  settle(id: string, claim: string, patch: DeliveryPatch, now: number): Promise<boolean> {
    return this.settles.submit({ id, claim, patch, now });
  }

  /** One transaction (one commit, one log flush) for the outcomes of every try that ended meanwhile. */
  private settleGroup(items: SettleItem[]): Promise<boolean[]> {
    return this.uow.run(async (em) => {
      const repo = em.getRepository(CallbackDelivery);
      const won: boolean[] = [];
      for (const { id, claim, patch, now } of items) {
        const res = await repo.update({ id, claim }, { ...patch, claim: null, leaseUntil: null, updatedAt: now });
        won.push((res.affected ?? 0) > 0);
      }
      return won;
    });
  }

  /**
   * Ends as CALLBACK_FAILED (`EXPIRED: …`) every waiting, unclaimed delivery of `namespace` whose final state is
   * older than `maxAgeMs` (docs/callbacks.md "Hosts marked down"). @returns how many.
   */
  async expire(namespace: string, now: number, maxAgeMs: number): Promise<number> {
    const error = `EXPIRED: not delivered within ${maxAgeMs} ms of the final state`;
    const sql =
      `UPDATE callback_delivery SET state = ?, last_error = ?, claim = NULL, lease_until = NULL, updated_at = ?` +
      ` WHERE namespace = ? AND state IN (?, ?) AND final_at < ? AND (lease_until IS NULL OR lease_until < ?)`;
    const params = [CallbackState.CALLBACK_FAILED, error, now, namespace, ...DUE_STATES, now - maxAgeMs, now];
    return Number((await runStatement(this.ds, undefined, sql, params)).affected ?? 0);
  }

  /** `namespace`'s undelivered rows (PENDING, RETRYING) and the oldest one's `final_at` (epoch ms, null when none). */
  async outboxStats(namespace: string): Promise<{ depth: number; oldestFinalAt: number | null }> {
    const rows = (await this.ds.query(
      'SELECT COUNT(*) AS n, MIN(final_at) AS oldest FROM callback_delivery WHERE namespace = ? AND state IN (?, ?)',
      [namespace, ...DUE_STATES],
    )) as Array<{ n: unknown; oldest: unknown }>;
    const oldest = rows[0]?.oldest;
    return {
      depth: Number(rows[0]?.n ?? 0),
      oldestFinalAt: oldest === null || oldest === undefined ? null : Number(oldest),
    };
  }

  /**
   * `appId\nhandler` → URL for every registration of `appIds` (handler '' is the app's default). A raw statement:
   * the finish writer runs it once per group commit round (the query builder cost the executor CPU).
   */
  private async registrationsOf(em: EntityManager, appIds: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < appIds.length; i += STATEMENT_ROWS) {
      const part = appIds.slice(i, i + STATEMENT_ROWS);
      const sql = `SELECT app_id, handler, url FROM callback_registration WHERE app_id IN (${marks(part.length)})`;
      const { records } = await runStatement(this.ds, em, sql, part);
      for (const r of (records ?? []) as Array<{ app_id: string; handler: string; url: string }>)
        out.set(`${r.app_id}\n${r.handler}`, r.url);
    }
    return out;
  }

  /**
   * Deliveries matching `f`, newest created first then by id: `limit` of them after skipping `offset`, or after
   * `after` (keyset), each with its instance's request id and job (a second read, by instance id). The namespace's
   * rows (and `state`) come from ix_callback_delivery_ns_due (namespace, state, next_attempt_at), sorted here.
   */
  async listPage(
    f: DeliveryFilter,
    offset: number,
    limit: number,
    after?: { createdAt: number; id: string },
  ): Promise<ListedDelivery[]> {
    const qb = this.filtered(f);
    if (after)
      qb.andWhere('(d.createdAt < :ac OR (d.createdAt = :ac AND d.id < :ai))', { ac: after.createdAt, ai: after.id });
    const rows = await qb
      .orderBy('d.createdAt', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .offset(offset)
      .limit(limit)
      .getMany();
    const refs = new Map<string, { request_id: string; job_id: string | null }>();
    if (rows.length > 0) {
      const sql = `SELECT id, request_id, job_id FROM job_instance WHERE id IN (${marks(rows.length)})`;
      const found = (await this.ds.query(
        sql,
        rows.map((d) => d.instanceId),
      )) as Array<Record<string, string>>;
      for (const r of found) refs.set(r.id, { request_id: r.request_id, job_id: r.job_id ?? null });
    }
    return rows.map((delivery) => {
      const ref = refs.get(delivery.instanceId);
      return { delivery, requestId: ref?.request_id ?? null, jobId: ref?.job_id ?? null };
    });
  }

  /** How many deliveries match `f` (every page). */
  countPage(f: DeliveryFilter): Promise<number> {
    return this.filtered(f).getCount();
  }

  /** A SELECT of the deliveries `f` names (alias d). */
  private filtered(f: DeliveryFilter): SelectQueryBuilder<CallbackDelivery> {
    const qb = this.ds.getRepository(CallbackDelivery).createQueryBuilder('d').where('d.namespace = :ns', {
      ns: f.namespace,
    });
    if (f.appId !== null) qb.andWhere('d.appId = :app', { app: f.appId });
    if (f.state !== undefined) qb.andWhere('d.state = :state', { state: f.state });
    return qb;
  }

  /** Retention: deletes the settled (DELIVERED, CALLBACK_FAILED) deliveries of `instanceIds`. @returns rows removed. */
  removeSettled(instanceIds: string[], batch: number): Promise<number> {
    const sql = (n: number) => `DELETE FROM callback_delivery WHERE instance_id IN (${marks(n)}) AND state IN (?, ?)`;
    return deleteByIds(this.ds, instanceIds, batch, sql, [CallbackState.DELIVERED, CallbackState.CALLBACK_FAILED]);
  }

  /** Those of `instanceIds` (one statement's worth) that have a delivery row. */
  async instancesWithDelivery(instanceIds: string[]): Promise<Set<string>> {
    if (instanceIds.length === 0) return new Set();
    const sql = `SELECT instance_id FROM callback_delivery WHERE instance_id IN (${marks(instanceIds.length)})`;
    const rows = (await this.ds.query(sql, instanceIds)) as Array<{ instance_id: string }>;
    return new Set(rows.map((r) => r.instance_id));
  }
}
