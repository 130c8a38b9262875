import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TimeoutMode } from '../../../common/index.js';
import { CallbackViewDto } from './callback.dto.js';

/** One attempt of an instance (the job_attempt row). Times are ISO-8601 UTC. */
export class AttemptViewDto {
  @ApiProperty({ description: '1-based; a retry, a lost node or lease, or a hand-back starts the next one.' })
  attempt: number;
  @ApiProperty({ description: 'The executor node that ran it.' }) nodeId: string;
  @ApiProperty({
    description: 'The fencing token the attempt ran under (docs/execution.md); a later attempt has a larger one.',
  })
  fencingToken: number;
  @ApiProperty({
    description:
      'RUNNING, SUCCESS, FAILED, TIMEOUT, CANCELLED, HANDED_BACK (its node shut down), NODE_LOST or LEASE_LOST ' +
      '(taken back).',
  })
  status: string;
  @ApiProperty({ description: 'When the attempt started, UTC ISO-8601 (ms).' }) startedAt: string;
  @ApiProperty({ nullable: true, type: String, description: 'When it ended, UTC ISO-8601 (ms); null while it runs.' })
  finishedAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Why it failed (at most 4000 characters, a cut one ending ` …[N characters cut]`); null: none.',
  })
  error: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'When the handler really returned; later than finishedAt when it ignored its abort and kept running. null: ' +
      'it has not returned (yet), or its node was lost.',
  })
  handlerEndedAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['SUCCESS', 'FAILED'],
    description:
      'A late completion: how a handler that returned after its attempt was recorded ended. Never applied to ' +
      'the instance.',
  })
  lateStatus: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The late completion's error (FAILED)." })
  lateError: string | null;
  @ApiProperty({
    description:
      "This attempt started while an earlier attempt's handler of the same instance still ran (two ran at once).",
  })
  overlapsPrevious: boolean;
}

/** GET /api/tasks/{requestId} answer. Times are ISO-8601 UTC. */
export class TaskViewDto {
  @ApiProperty({ description: "The task's requestId; for a job fire, one the scheduler made up." })
  requestId: string;
  @ApiProperty({ description: 'The instance id (UUID): names a job fire in /api/jobs/{id}/instances/{instanceId}.' })
  instanceId: string;
  @ApiProperty({
    description: "The app that owns it: the task's submitter, or the job's owner (an admin names it with ?appId=).",
  })
  appId: string;
  @ApiProperty({ description: 'The handler that runs it.' }) handler: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The task's taskName (docs/api.md \"The design source's shape\"); null: none, and for job fires.",
  })
  taskName: string | null;
  @ApiProperty({
    enum: ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING', 'SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'],
    description: 'Where it is (docs/state-machine.md); SUCCESS, FAILED, TIMEOUT and CANCELLED are final.',
  })
  status: string;
  @ApiProperty({ description: 'The current (or last) attempt, from 1; 0 before the first starts.' }) attempt: number;
  @ApiProperty({ description: 'Most attempts it gets (1 + retries).' }) maxAttempts: number;
  @ApiProperty({ nullable: true, type: String, description: 'The executor node it was routed to; null before.' })
  nodeId: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The job's code for a job fire; null for a task." })
  jobCode: string | null;
  @ApiProperty({ description: 'Shard of the fire, 0-based (SHARDING_BROADCAST jobs; 0 otherwise).' })
  shardIndex: number;
  @ApiProperty({ description: 'Shards of the fire (1 unless SHARDING_BROADCAST).' }) shardTotal: number;
  @ApiProperty({
    enum: ['SCHEDULE', 'API', 'MANUAL', 'BACKFILL', 'RETRY', 'MISFIRE'],
    description: 'What created it: API for a task, SCHEDULE for a fire, MANUAL for trigger-now, BACKFILL...',
  })
  triggerSource: string;
  @ApiProperty({ nullable: true, description: 'What the handler returned (JSON, at most 65,535 bytes); null: none.' })
  result: unknown;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The outcome's error, once final; an earlier attempt's error is in `attempts`.",
  })
  error: string | null;
  @ApiProperty({
    description:
      'W3C trace id (32 hex) of its run: the `traceparent` it was submitted with, else a new one; every log line ' +
      'about it carries it (docs/observability.md "Tracing").',
  })
  traceId: string;
  @ApiProperty({
    description:
      'The W3C `traceparent` its work continues: its trace id and the span of its submit or fire. Each attempt is ' +
      "a child span (the handler's ctx.traceparent, the `http` handler's header); callbacks carry a child of it.",
    example: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  })
  traceparent: string;
  @ApiProperty({ description: 'The scheduled fire time (a task: when it was submitted), UTC ISO-8601 (ms).' })
  fireTime: string;
  @ApiProperty({ description: 'When it becomes due to run (fire time + delayMs, or a retry backoff), UTC ISO-8601.' })
  dueAt: string;
  @ApiProperty({ description: 'When the row was written, UTC ISO-8601 (ms).' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, description: 'When it was routed to a node, UTC ISO-8601; or null.' })
  dispatchedAt: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When its last attempt started, UTC ISO-8601; null: not.' })
  startedAt: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When it reached its final state, UTC ISO-8601; or null.' })
  finishedAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'When the handler last stored a checkpoint (`ctx.checkpoint`, docs/long-tasks.md); null: none. The state ' +
      'itself is not shown.',
  })
  checkpointAt: string | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The attempt that stored the last checkpoint; the next attempt resumes from it. Null: none.',
  })
  checkpointAttempt: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The instance's own callback URL (the task's, or its job's when it was created); null: none.",
  })
  callbackUrl: string | null;
  @ApiProperty({
    nullable: true,
    type: CallbackViewDto,
    description:
      'The callback delivery, written when the instance reached its final state with a callback URL (its own, ' +
      "else the app's registration for the handler, else its default); null before that, or when none applied. " +
      'POST …/callback/redeliver sends it again.',
  })
  callback: CallbackViewDto | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Last progress the handler reported (ctx.progress), a fraction 0..1; null: none reported.',
  })
  progress: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'The note of that report (at most 256 characters).' })
  progressNote: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'When that report was stored (at most one write per PROGRESS_WRITE_INTERVAL_MS per instance; later ' +
      'reports coalesce).',
  })
  progressAt: string | null;
  @ApiProperty({ description: 'Heartbeat timeout of its attempts, ms (docs/long-tasks.md); 0 = none.' })
  heartbeatTimeoutMs: number;
  @ApiProperty({
    description:
      'Its priority, 1 (lowest) to 5 (highest): its task\'s, or its job\'s when fired (a trigger-now may override). ' +
      'Within its app\'s share of an executor, higher runs first, aged by waiting (docs/dispatch.md "Priorities").',
  })
  priority: number;
  @ApiProperty({
    enum: TimeoutMode,
    description: 'HARD: timeoutMs ends an attempt; HEARTBEAT: only silence or MAX_RUN_TIME_MS (docs/long-tasks.md).',
  })
  timeoutMode: string;
  @ApiPropertyOptional({
    type: [AttemptViewDto],
    description:
      'Every attempt so far, oldest first: on reads of one instance (GET of a task or of a job instance), not in ' +
      'lists.',
  })
  attempts?: AttemptViewDto[];
  @ApiPropertyOptional({
    description:
      'On reads of one instance: why a due PENDING instance is not moving, e.g. no live executor advertises its ' +
      'handler. On any read: which stored fields cannot be read (a corrupt row, e.g. params cut at 65,535 bytes), ' +
      'shown as null.',
  })
  note?: string;
}

/** POST /api/jobs/{id}/trigger answer: the new instance; for a sharded job shard 0, and every shard under `shards`. */
export class TriggerViewDto extends TaskViewDto {
  @ApiPropertyOptional({
    type: [TaskViewDto],
    description: 'Every shard of the fire, by shard index (SHARDING_BROADCAST jobs only).',
  })
  shards?: TaskViewDto[];
}
