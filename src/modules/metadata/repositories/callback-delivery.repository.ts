import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { newId } from '../../../common/index.js';
import { CallbackDelivery, CallbackState, JobInstance } from '../entities/index.js';
import { insertIgnoreVerb, marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';

/** An instance that has just reached a final state, as its writer holds it (the columns the outbox needs). */
export type FinalInstance = Pick<JobInstance, 'id' | 'appId' | 'handler' | 'callbackUrl'>;

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

const COLUMNS = [
  'id',
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
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Writes the delivery rows of instances that reached a final state at `now` (epoch ms) inside `em`: the URL is
   * the instance's own (a task's, or its job's copied at fire time), else the app's registration for the
   * instance's handler, else the app's default; an instance with none gets no row. INSERT IGNORE on the unique
   * instance id: a retried finishing write cannot make a second delivery. @returns the rows written.
   */
  async enqueueFinal(em: EntityManager, finals: readonly FinalInstance[], now: number): Promise<number> {
    if (finals.length === 0) return 0;
    const unresolved = [...new Set(finals.filter((f) => !f.callbackUrl).map((f) => f.appId))];
    const registered = unresolved.length > 0 ? await this.registrationsOf(em, unresolved) : new Map();
    const rows: unknown[][] = [];
    for (const f of finals) {
      const url = f.callbackUrl ?? registered.get(`${f.appId}\n${f.handler}`) ?? registered.get(`${f.appId}\n`);
      const host = url ? callbackHostOf(url) : null;
      if (!url || !host) continue;
      rows.push([newId(), f.id, f.appId, url, host, CallbackState.PENDING, 0, now, now, now, now]);
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
   * claim dropped (a sender still holding it loses its write). @returns false when there is no such row.
   */
  async redeliver(id: string, now: number): Promise<boolean> {
    const res = await this.ds.getRepository(CallbackDelivery).update(
      { id },
      {
        state: CallbackState.PENDING,
        attempts: 0,
        nextAttemptAt: now,
        claim: null,
        leaseUntil: null,
        lastStatusCode: null,
        lastError: null,
        deliveredAt: null,
        updatedAt: now,
      },
    );
    return (res.affected ?? 0) > 0;
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
}
