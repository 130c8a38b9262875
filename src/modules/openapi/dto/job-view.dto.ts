import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TimeoutMode } from '../../../common/index.js';
import {
  BackoffKind,
  CorruptJson,
  describeCorruptRow,
  JobDefinition,
  type LastRun,
  type ReshardProgress,
  MisfirePolicy,
  OverlapPolicy,
  PausedReason,
  RoutingStrategy,
  TriggerType,
} from '../../metadata/index.js';
import { describeFires } from '../../trigger/index.js';
import { iso } from '../views/iso.js';
import { FireTimeDto } from './schedule.dto.js';

/** A job's newest instance (JobViewDto.lastRun); times ISO-8601 UTC. */
export class LastRunDto {
  @ApiProperty({ description: 'The instance id (UUID): GET /api/jobs/{id}/instances/{instanceId} reads it.' })
  instanceId: string;
  @ApiProperty({ description: 'Its status now, final or not (PENDING … CANCELLED).' }) status: string;
  @ApiProperty({ description: 'The fire time it ran for, UTC ISO-8601 (ms).' }) fireTime: string;
  @ApiProperty({ type: String, nullable: true, description: 'When its last attempt started; null: not yet.' })
  startedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'When it reached its final state; null: not yet.' })
  finishedAt: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'finishedAt - startedAt in ms; null until both are set.',
  })
  durationMs: number | null;

  static of(r: LastRun): LastRunDto {
    const ran = r.startedAt !== null && r.finishedAt !== null;
    return {
      instanceId: r.id,
      status: r.status,
      fireTime: iso(r.fireTime) as string,
      startedAt: iso(r.startedAt),
      finishedAt: iso(r.finishedAt),
      durationMs: ran ? (r.finishedAt as number) - (r.startedAt as number) : null,
    };
  }
}

/** A sharded job's resharding progress (JobViewDto.resharding): three counts of its shards. */
export class ReshardingDto {
  @ApiProperty({ description: 'Shards placed on a node (shardTotal once a fire has been routed).' }) total: number;
  @ApiProperty({
    description:
      'Shards marked for resharding: their owner is live but the rendezvous deal now names another node; each ' +
      'moves at a later fire, one shard per fire, once its run on the old owner has ended. 0: settled.',
  })
  pending: number;
  @ApiProperty({ description: 'Shards moved to their new owner since the latest resharding began.' }) moved: number;
}

/** A job definition as the API shows it; times ISO-8601 UTC. */
export class JobViewDto {
  @ApiProperty({ description: 'The job id (UUID): names the job in every /api/jobs/{id} route, like its code.' })
  id: string;
  @ApiProperty({ description: 'The app that owns the job (created it).' }) appId: string;
  @ApiProperty({ description: 'The job code, unique per app in its namespace (1-128 of A-Z a-z 0-9 _ . -).' })
  code: string;
  @ApiProperty({ nullable: true, type: String, description: 'Free text, at most 255 characters; null: none.' })
  description: string | null;
  @ApiProperty({ description: 'The handler name an executor advertises (e.g. noop, http, shell).' }) handler: string;
  @ApiProperty({
    enum: [TriggerType.CRON, TriggerType.FIXED_RATE, TriggerType.FIXED_DELAY, TriggerType.ONE_SHOT],
    description: 'How fire times are computed (docs/trigger.md).',
  })
  triggerType: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'CRON: a 5/6-field expression; FIXED_RATE / FIXED_DELAY: a period in ms; ONE_SHOT: an ISO-8601 instant.',
  })
  triggerExpr: string | null;
  @ApiProperty({ description: 'IANA time zone a CRON expression is read in (e.g. Europe/Paris); default UTC.' })
  timeZone: string;
  @ApiProperty({ description: 'JSON handed to the handler on every fire (null when a stored value is corrupt).' })
  params: unknown;
  @ApiProperty({ enum: RoutingStrategy, description: 'How each instance picks its executor (docs/dispatch.md).' })
  routingStrategy: string;
  @ApiProperty({ nullable: true, type: String, description: 'Key of CONSISTENT_HASH routing (same key, same node).' })
  routingKey: string | null;
  @ApiProperty({ description: 'Instances per fire (SHARDING_BROADCAST: one per shard), 1-1000.' }) shardTotal: number;
  @ApiProperty({
    nullable: true,
    type: [Object],
    description: 'Per-shard params, one per shard (index = shardIndex); null: every shard gets params.',
  })
  shardParams: unknown[] | null;
  @ApiProperty({ enum: MisfirePolicy, description: 'What a fire missed while no leader ran does (docs/trigger.md).' })
  misfirePolicy: string;
  @ApiProperty({ enum: OverlapPolicy, description: 'What a fire does while the previous one still runs.' })
  overlapPolicy: string;
  @ApiProperty({ description: 'Most instances of the job running at once; 0 = no limit.' }) maxConcurrency: number;
  @ApiProperty({ description: 'Most fires kept WAITING under overlapPolicy QUEUE; further ones are skipped.' })
  queueLimit: number;
  @ApiProperty({ description: 'Time one attempt may run before it is a TIMEOUT, ms.' }) timeoutMs: number;
  @ApiProperty({ description: 'Silence after which a running handler is stuck, ms (docs/long-tasks.md); 0 = none.' })
  heartbeatTimeoutMs: number;
  @ApiProperty({ description: 'Priority copied to each instance, 1 (lowest) to 5 (highest) (docs/dispatch.md).' })
  priority: number;
  @ApiProperty({
    enum: TimeoutMode,
    description: 'HARD: timeoutMs ends an attempt; HEARTBEAT: only silence or MAX_RUN_TIME_MS (docs/long-tasks.md).',
  })
  timeoutMode: string;
  @ApiProperty({ description: 'Retries after a failed attempt (0 = none): at most retryMax + 1 attempts.' })
  retryMax: number;
  @ApiProperty({ description: 'Wait before the first retry, ms (EXPONENTIAL doubles it each retry).' })
  retryBackoffMs: number;
  @ApiProperty({ enum: BackoffKind, description: 'FIXED: every retry waits retryBackoffMs; EXPONENTIAL doubles it.' })
  retryBackoffKind: string;
  @ApiProperty({ description: 'False while paused (POST .../pause): the schedule makes no fire.' }) enabled: boolean;
  @ApiProperty({
    nullable: true,
    enum: PausedReason,
    description:
      'Why the system paused the job; null when it did not. CLIENT_DISABLED: its app\'s client was disabled; it ' +
      'resumes (its misfire policy deciding the fires missed meanwhile) when an admin enables the client; resume is ' +
      'a 409 until then (docs/tenancy.md "Disabled clients"). CRONTAB_USER: a crontab import kept it paused because ' +
      "its line names a user (root) it does not run as (README \"Importing crontabs\"); resume clears it. A user's " +
      'own pause clears either.',
  })
  pausedReason: PausedReason | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "Where each new instance's final state is POSTed (copied into the instance when it is created); null: the " +
      "app's registrations decide (docs/callbacks.md).",
  })
  callbackUrl: string | null;
  @ApiProperty({
    description:
      "Whether the job's runs are counted in tickwheel_job_runs_total (docs/observability.md \"Job runs\"); " +
      'at most JOB_METRICS_MAX jobs of the namespace.',
  })
  metrics: boolean;
  @ApiProperty({ description: 'OK, or ERROR when the next fire could not be computed (see scheduleError).' })
  scheduleState: string;
  @ApiProperty({ nullable: true, type: String, description: 'Why the next fire could not be computed; else null.' })
  scheduleError: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The next fire, UTC ISO-8601 (ms); null while paused.' })
  nextFireTime: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The last fire made, UTC ISO-8601 (ms); null: none yet.' })
  lastFireTime: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'When a ONE_SHOT job made its fire, UTC ISO-8601 (ms); it is then disabled for good (resume is a 409).',
  })
  completedAt: string | null;
  @ApiProperty({
    type: [String],
    description:
      'The next 5 fire times from now, UTC ISO-8601 (ms) (FIXED_DELAY: assuming zero run time), even while paused.',
  })
  nextFireTimes: string[];
  @ApiProperty({
    type: [FireTimeDto],
    description:
      'The same fire times as nextFireTimes, each with its wall-clock time in timeZone and, when a clock change ' +
      'moved or merged it, a note (as POST /api/schedules/preview answers).',
  })
  nextFires: FireTimeDto[];
  @ApiProperty({
    type: LastRunDto,
    nullable: true,
    description:
      "The job's newest instance by fire time, any status (the first item of GET /api/jobs/{id}/instances: of a " +
      'sharded fire, its highest shard); null: it has none.',
  })
  lastRun: LastRunDto | null;
  @ApiProperty({
    type: ReshardingDto,
    nullable: true,
    description:
      'SHARDING_BROADCAST jobs: the stored shard placement (docs/dispatch.md "Shard placement"): how many shards ' +
      'wait for a move to a new node after the node set changed, and how many moved; null: not sharded, or no fire ' +
      'routed yet.',
  })
  resharding: ReshardingDto | null;
  @ApiProperty({ description: 'Grows by one on every change of the definition (optimistic lock).' }) version: number;
  @ApiProperty({ description: 'When the job was created, UTC ISO-8601 (ms).' }) createdAt: string;
  @ApiProperty({ description: 'When the definition last changed, UTC ISO-8601 (ms).' }) updatedAt: string;
  @ApiPropertyOptional({
    description:
      'Present when stored params or shardParams cannot be read (a corrupt row): they are shown as null; send new ' +
      'ones with PATCH.',
  })
  note?: string;

  /** The view of `d` with its next fire times `preview` (ms), its newest instance and its resharding, if any. */
  static of(
    d: JobDefinition,
    preview: number[],
    lastRun: LastRun | null,
    resharding: ReshardProgress | null = null,
  ): JobViewDto {
    const corrupt = describeCorruptRow(d);
    const readable = <T>(v: T): T | null => (v instanceof CorruptJson ? null : v);
    return {
      id: d.id,
      appId: d.appId,
      code: d.code,
      description: d.description,
      handler: d.handler,
      triggerType: d.triggerType,
      triggerExpr: d.triggerExpr,
      timeZone: d.timeZone,
      params: readable(d.params),
      routingStrategy: d.routingStrategy,
      routingKey: d.routingKey,
      shardTotal: d.shardTotal,
      shardParams: readable(d.shardParams),
      misfirePolicy: d.misfirePolicy,
      overlapPolicy: d.overlapPolicy,
      maxConcurrency: d.maxConcurrency,
      queueLimit: d.queueLimit,
      timeoutMs: d.timeoutMs,
      heartbeatTimeoutMs: d.heartbeatTimeoutMs,
      priority: d.priority,
      timeoutMode: d.timeoutMode,
      retryMax: d.retryMax,
      retryBackoffMs: d.retryBackoffMs,
      retryBackoffKind: d.retryBackoffKind,
      enabled: d.enabled,
      pausedReason: d.pausedReason ?? null,
      callbackUrl: d.callbackUrl ?? null,
      metrics: (d.metricsSlot ?? null) !== null,
      scheduleState: d.scheduleState,
      scheduleError: d.scheduleError,
      nextFireTime: iso(d.nextFireTime),
      lastFireTime: iso(d.lastFireTime),
      completedAt: iso(d.completedAt ?? null),
      nextFireTimes: preview.map((t) => new Date(t).toISOString()),
      nextFires: describeFires(d, preview, null).map((f) => FireTimeDto.of(f)),
      lastRun: lastRun === null ? null : LastRunDto.of(lastRun),
      resharding:
        d.routingStrategy === RoutingStrategy.SHARDING_BROADCAST && resharding !== null ? { ...resharding } : null,
      version: d.version,
      createdAt: iso(d.createdAt) as string,
      updatedAt: iso(d.updatedAt) as string,
      ...(corrupt !== null ? { note: `${corrupt}: shown as null; send new ones with PATCH` } : {}),
    };
  }
}

/** GET /api/jobs answer: one page of jobs by code. */
export class JobPageDto {
  @ApiProperty({ description: 'How many jobs the query matches in all (every page).' }) total: number;
  @ApiProperty({ type: [JobViewDto], description: 'This page, by code; at most `limit` jobs.' }) items: JobViewDto[];
}
