import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import {
  type ApiClient,
  type AuditLog,
  AuditLogRepository,
  type AuditQuery,
  type JobDefinition,
  type Tx,
} from '../../metadata/index.js';
import { redactSecrets } from './redact.js';

/** What an audit row records (README "Audit"). */
export enum AuditAction {
  JOB_CREATE = 'JOB_CREATE',
  JOB_UPDATE = 'JOB_UPDATE',
  JOB_DELETE = 'JOB_DELETE',
  JOB_PAUSE = 'JOB_PAUSE',
  JOB_RESUME = 'JOB_RESUME',
  JOB_TRIGGER = 'JOB_TRIGGER',
  JOB_BACKFILL = 'JOB_BACKFILL',
  INSTANCE_CANCEL = 'INSTANCE_CANCEL',
  TASK_CANCEL = 'TASK_CANCEL',
  CRONTAB_IMPORT = 'CRONTAB_IMPORT',
  CLIENT_CREATE = 'CLIENT_CREATE',
  CLIENT_UPDATE = 'CLIENT_UPDATE',
  CLIENT_DISABLE = 'CLIENT_DISABLE',
  CLIENT_ROTATE_SECRET = 'CLIENT_ROTATE_SECRET',
  CALLBACK_REGISTER = 'CALLBACK_REGISTER',
  CALLBACK_DELETE = 'CALLBACK_DELETE',
  CALLBACK_REDELIVER = 'CALLBACK_REDELIVER',
  NOTIFY_RULE_SET = 'NOTIFY_RULE_SET',
  NOTIFY_RULE_DELETE = 'NOTIFY_RULE_DELETE',
  NOTIFY_RULE_TEST = 'NOTIFY_RULE_TEST',
  NOTIFICATION_SENT = 'NOTIFICATION_SENT',
  NOTIFICATION_FAILED = 'NOTIFICATION_FAILED',
  CALLBACK_REDELIVER_HOST = 'CALLBACK_REDELIVER_HOST',
}

/** Largest JSON of one snapshot, bytes: a row that does not fit its TEXT column would fail the change. */
const MAX_SNAPSHOT_BYTES = 60_000;

/**
 * Audit rows (README "Audit"), written inside the transaction of the change they record, in this process's
 * namespace, with params redacted by key ({@link redactSecrets}); never a client's secret.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly repo: AuditLogRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Appends one row inside `em` (`actor` null: an operator's CLI); oversized snapshots lose their params.
   * `namespace`: the target's, when it is not this process's (a client change pausing another namespace's jobs).
   */
  record(
    em: Tx,
    actor: string | null,
    action: AuditAction,
    target: { type: string; id: string },
    before?: unknown,
    after?: unknown,
    namespace = this.config.namespace,
  ): Promise<void> {
    return this.repo.append(
      {
        namespace,
        appId: actor,
        action,
        targetType: target.type,
        targetId: target.id,
        before: bounded(before),
        after: bounded(after),
      },
      this.clock.now(),
      em,
    );
  }

  /** A page of this namespace's rows, newest first (see AuditLogRepository.find). */
  list(q: Omit<AuditQuery, 'namespace'>): Promise<[AuditLog[], number]> {
    return this.repo.find({ ...q, namespace: this.config.namespace });
  }
}

/** A job definition as audit rows keep it: every column, params and shardParams redacted. */
export function jobSnapshot(def: JobDefinition): Record<string, unknown> {
  return { ...def, params: redactSecrets(def.params), shardParams: redactSecrets(def.shardParams) };
}

/** A client as audit rows keep it: never its (sealed) secret. */
export function clientSnapshot(c: ApiClient): Record<string, unknown> {
  const { secretEnc: _secret, ...rest } = c;
  return rest;
}

function bounded(snapshot: unknown): unknown {
  if (snapshot === undefined || snapshot === null) return null;
  const bytes = Buffer.byteLength(JSON.stringify(snapshot));
  if (bytes <= MAX_SNAPSHOT_BYTES) return snapshot;
  if (typeof snapshot !== 'object' || Array.isArray(snapshot)) return { omitted: `${bytes} bytes` };
  const lean = {
    ...(snapshot as Record<string, unknown>),
    params: `[omitted: ${bytes} bytes]`,
    shardParams: undefined,
  };
  return Buffer.byteLength(JSON.stringify(lean)) <= MAX_SNAPSHOT_BYTES ? lean : { omitted: `${bytes} bytes` };
}
