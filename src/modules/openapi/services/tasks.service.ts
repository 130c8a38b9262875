import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CLOCK, type Clock, ConflictError, NotFoundError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { CancelService, DispatchService } from '../../dispatch/index.js';
import { JobInstance, JobInstanceRepository, JobInstanceStatus, newJobInstance, TriggerSource } from '../../metadata/index.js';
import { SubmitTaskDto, TaskAcceptedDto } from '../dto/task.dto.js';
import { HandlerCheckService } from './handler-check.service.js';

const DEFAULT_TIMEOUT_MS = 60_000;

/** Outcome of a submit: the answer, and whether it replays an earlier identical request. */
export interface SubmitResult {
  accepted: TaskAcceptedDto;
  replayed: boolean;
}

/**
 * The async task API (DESIGN §8): submit answers at once, the row committed before the answer; the
 * unique (app_id, request_id) key makes a retried or concurrent identical submit return the first answer
 * and a reused id with a different body a 409. Dispatch after the commit is best effort: if it fails the
 * row is PENDING and the leader's reconciler dispatches it.
 */
@Injectable()
export class TasksService {
  private readonly logger = new Logger(TasksService.name);

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly dispatch: DispatchService,
    private readonly cancels: CancelService,
    private readonly handlers: HandlerCheckService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** @throws ConflictError when `requestId` was used by this app with another body. */
  async submit(appId: string, dto: SubmitTaskDto): Promise<SubmitResult> {
    await this.handlers.assertRunnable(dto.handler);
    const now = this.clock.now();
    const { requestId, ...rest } = dto;
    const requestHash = hashBody(rest);
    const row = newJobInstance({
      namespace: this.config.namespace, appId, requestId, requestHash, handler: dto.handler, fireTime: now, triggerSource: TriggerSource.API,
      maxAttempts: dto.maxAttempts, retryBackoffMs: dto.retryBackoffMs, retryBackoffKind: dto.retryBackoffKind, timeoutMs: dto.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      routingKey: dto.routingKey, params: dto.params ?? {}, dueAt: now + (dto.delayMs ?? 0),
    }, now);
    const { created, instance } = await this.instances.insertOrGet(row);
    if (!created && instance.requestHash !== requestHash) {
      throw new ConflictError(`requestId '${instance.requestId}' was already used with a different body`, 'requestId');
    }
    if (created) {
      await this.dispatch.dispatchRows([instance]).catch((err: Error) => this.logger.warn(`dispatch of ${instance.id} deferred to the reconciler: ${err.message}`));
    }
    return {
      accepted: { requestId: instance.requestId, status: JobInstanceStatus.PENDING, estimatedDelay: Math.max(0, instance.dueAt - instance.createdAt) },
      replayed: !created,
    };
  }

  /**
   * Cancels one of this app's tasks (any unfinished status; a running handler's signal aborts within a
   * heartbeat). Cancelling a task that already ended changes nothing and returns it as it is.
   * @throws NotFoundError when this app has no task with `requestId`.
   */
  async cancel(appId: string, requestId: string): Promise<JobInstance> {
    const row = await this.get(appId, requestId);
    await this.cancels.cancel(row, `cancelled by ${appId}`);
    return this.get(appId, requestId);
  }

  /** @throws NotFoundError when this app has no task with `requestId`. */
  async get(appId: string, requestId: string): Promise<JobInstance> {
    const row = await this.instances.findByRequest(appId, requestId);
    if (!row) throw new NotFoundError('task', requestId);
    return row;
  }
}

/** SHA-256 of the body with keys sorted at every level, so key order never makes two bodies differ. */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(stableJson(body)).digest('hex');
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
