import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { BOUNDS, nameMessage, namePattern } from '../../../common/index.js';
import { BoundedInt, BoundedString, HANDLER_MESSAGE, NAME_PATTERN } from './validators.js';

const B = BOUNDS;
const OUTCOMES = ['SUCCESS', 'FAILED', 'TIMEOUT', 'HEARTBEAT_TIMEOUT', 'SHUTDOWN', 'CANCELLED'] as const;
const LEVELS = ['info', 'warn', 'error'] as const;
const tokenApi = { description: 'The fencing token the claim issued for this attempt.' };

/** POST /api/worker/nodes body (docs/workers.md). */
export class RegisterWorkerDto {
  @ApiProperty({
    type: [String],
    minItems: B.workerHandlers.min,
    maxItems: B.workerHandlers.max,
    description:
      "Handler names the worker runs (each 1-128 of [A-Za-z0-9_.:-]); only its app's instances of these are routed " +
      'to it. The built-in noop, http and shell are refused (400 naming handlers).',
  })
  @IsArray()
  @ArrayMinSize(B.workerHandlers.min)
  @ArrayMaxSize(B.workerHandlers.max)
  @IsString({ each: true })
  @Matches(NAME_PATTERN, { each: true, message: `each of handlers: ${HANDLER_MESSAGE}` })
  handlers: string[];

  @BoundedInt(B.workerCapacity, {
    required: true,
    api: {
      description:
        'Most attempts the worker runs at once; claims never leave it more than twice as many RUNNING (its handlers ' +
        'and the finishes on their way).',
    },
  })
  capacity: number;

  @BoundedString(B.workerHost, { api: { description: 'The worker host name, shown in /api/nodes.' } })
  host?: string;
}

/** 201 answer of POST /api/worker/nodes: the node and the timings the worker keeps to (ms). */
export class WorkerRegisteredDto {
  @ApiProperty({ description: 'The node id (server-made, `w-<appId>-<hex>`); every other route names it.' })
  nodeId: string;
  @ApiProperty({ description: 'Heartbeat at least this often; silent for nodeTimeoutMs, the node is gone.' })
  heartbeatIntervalMs: number;
  @ApiProperty({ description: 'A claim or renewal leases an attempt for this long.' }) leaseMs: number;
  @ApiProperty({ description: 'Renew the leases of running attempts this often.' }) leaseRenewMs: number;
  @ApiProperty({ description: 'Without a heartbeat this long the node expires (404; register again).' })
  nodeTimeoutMs: number;
  @ApiProperty({ description: 'Longest waitMs of a claim.' }) maxClaimWaitMs: number;
}

/** POST /api/worker/nodes/{nodeId}/heartbeat body. */
export class WorkerHeartbeatDto {
  @BoundedInt(B.workerActive, {
    required: true,
    api: { description: 'Attempts running on the worker now (at most its capacity).' },
  })
  active: number;

  @ApiPropertyOptional({ description: 'True while draining: no new work is routed to the node.' })
  @IsOptional()
  @IsBoolean()
  draining?: boolean;
}

/** POST /api/worker/nodes/{nodeId}/claims body. */
export class WorkerClaimDto {
  @BoundedInt(B.claimMax, { required: true, api: { description: 'Most attempts to claim.' } })
  max: number;

  @BoundedInt(B.claimWaitMs, {
    required: true,
    api: { description: 'How long to wait for work when none is queued (long poll), ms.' },
  })
  waitMs: number;
}

/** An attempt a worker names: instance and fencing token. */
export class AttemptRefDto {
  @ApiProperty({ maxLength: 36, description: 'The instance id.' })
  @IsString()
  @Matches(namePattern('0-9a-fA-F-', B.instanceId), { message: nameMessage('instanceId', '0-9a-fA-F-', B.instanceId) })
  instanceId: string;

  @BoundedInt(B.fencingToken, { required: true, api: tokenApi })
  fencingToken: number;
}

/** POST /api/worker/nodes/{nodeId}/leases body. */
export class WorkerLeasesDto {
  @ApiProperty({ type: [AttemptRefDto], maxItems: B.leaseAttempts.max, description: 'The attempts to renew.' })
  @IsArray()
  @ArrayMaxSize(B.leaseAttempts.max)
  @ValidateNested({ each: true })
  @Type(() => AttemptRefDto)
  attempts: AttemptRefDto[];
}

/** A lease the renewal found lost. */
export class LostLeaseDto extends AttemptRefDto {
  @ApiProperty({
    enum: ['LEASE_LOST', 'REVOKED'],
    description: 'LEASE_LOST: the row is no longer this attempt’s; REVOKED: cancelled. Abort the handler.',
  })
  reason: 'LEASE_LOST' | 'REVOKED';
}

/** 200 answer of the leases route. */
export class WorkerLeasesAnswerDto {
  @ApiProperty({ description: 'The renewed leases now end at this time (epoch ms UTC).' }) leaseUntil: number;
  @ApiProperty({ type: [LostLeaseDto], description: 'The named attempts whose lease was not renewed.' })
  lost: LostLeaseDto[];
}

/** POST …/attempts/{instanceId}/checkpoint body. */
export class WorkerCheckpointDto {
  @BoundedInt(B.fencingToken, { required: true, api: tokenApi })
  fencingToken: number;

  @ApiProperty({ description: 'Any JSON, at most CHECKPOINT_MAX_BYTES as JSON text (400 naming state beyond).' })
  @Allow()
  state: unknown;
}

/** POST …/attempts/{instanceId}/progress body. */
export class WorkerProgressDto {
  @BoundedInt(B.fencingToken, { required: true, api: tokenApi })
  fencingToken: number;

  @ApiProperty({ minimum: B.fraction.min, maximum: B.fraction.max, description: 'How far the attempt is, 0..1.' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(B.fraction.min)
  @Max(B.fraction.max)
  fraction: number;

  @BoundedString(B.progressNote, { api: { description: 'A short note shown with the progress.' } })
  note?: string;
}

/** One handler log line a worker sends. */
export class WorkerLogLineDto {
  @ApiProperty({ enum: LEVELS, description: 'The line’s level.' }) @IsIn(LEVELS) level: 'info' | 'warn' | 'error';
  @BoundedString(B.logMessage, { required: true, api: { description: 'The line.' } }) message: string;
  @BoundedInt(
    B.epochMs,
    {
      required: true,
      api: { description: 'When it was logged, epoch ms UTC (kept within the attempt’s start and now).' },
    },
  )
  at: number;
}

/** POST …/attempts/{instanceId}/logs body. */
export class WorkerLogsDto {
  @BoundedInt(B.fencingToken, { required: true, api: tokenApi })
  fencingToken: number;

  @ApiProperty({
    type: [WorkerLogLineDto],
    minItems: B.logLines.min,
    maxItems: B.logLines.max,
    description: 'The lines, oldest first.',
  })
  @IsArray()
  @ArrayMinSize(B.logLines.min)
  @ArrayMaxSize(B.logLines.max)
  @ValidateNested({ each: true })
  @Type(() => WorkerLogLineDto)
  lines: WorkerLogLineDto[];
}

/** POST …/attempts/{instanceId}/finish body. */
export class WorkerFinishDto {
  @BoundedInt(B.fencingToken, { required: true, api: tokenApi })
  fencingToken: number;

  @ApiProperty({
    enum: OUTCOMES,
    description:
      'How the attempt ended: SUCCESS (result), FAILED (error; retryable false fails it for good), TIMEOUT, ' +
      'HEARTBEAT_TIMEOUT, SHUTDOWN (handed back, no attempt used), CANCELLED (after a REVOKED lease).',
  })
  @IsIn(OUTCOMES)
  outcome: (typeof OUTCOMES)[number];

  @ApiPropertyOptional({ description: 'The handler’s result (stored bounded, as an executor’s).' })
  @IsOptional()
  result?: unknown;

  @BoundedString(B.workerError, { api: { description: 'What failed (FAILED).' } })
  error?: string;

  @ApiPropertyOptional({ description: 'FAILED only: false fails the instance without a retry.' })
  @IsOptional()
  @IsBoolean()
  retryable?: boolean;

  @BoundedInt(
    B.epochMs,
    { api: { description: 'When the handler really returned, epoch ms UTC.' } },
  )
  handlerEndedAt?: number;
}

/** One finish of a batch: the attempt's instance and its finish. */
export class WorkerFinishItemDto extends WorkerFinishDto {
  @ApiProperty({ maxLength: 36, description: 'The instance id.' })
  @IsString()
  @Matches(namePattern('0-9a-fA-F-', B.instanceId), { message: nameMessage('instanceId', '0-9a-fA-F-', B.instanceId) })
  instanceId: string;
}

/** POST /api/worker/nodes/{nodeId}/finishes body. */
export class WorkerFinishesDto {
  @ApiProperty({
    type: [WorkerFinishItemDto],
    minItems: B.finishItems.min,
    maxItems: B.finishItems.max,
    description: 'The finishes, each of a different instance (a repeated instanceId is a 400).',
  })
  @IsArray()
  @ArrayMinSize(B.finishItems.min)
  @ArrayMaxSize(B.finishItems.max)
  @ValidateNested({ each: true })
  @Type(() => WorkerFinishItemDto)
  items: WorkerFinishItemDto[];
}

/** How one finish of a batch went. */
export class WorkerFinishedItemDto {
  @ApiProperty({ description: 'The instance id, as sent.' }) instanceId: string;
  @ApiProperty({ description: 'The fencing token, as sent.' }) fencingToken: number;
  @ApiProperty({
    enum: [200, 404, 409],
    description:
      'What the single finish route would have answered: 200 (recorded: status, final), 404 (not this app’s, or ' +
      'another node’s running attempt) or 409 (stale token: nothing was written).',
  })
  code: number;
  @ApiPropertyOptional({ description: 'On 200: the row’s status after the write.' }) status?: string;
  @ApiPropertyOptional({ description: 'On 200: true when the instance will not run again.' }) final?: boolean;
  @ApiPropertyOptional({ description: 'On 404 and 409: why.' }) detail?: string;
}

/** 200 answer of finishes: one item per finish sent, in the same order. */
export class WorkerFinishesAnswerDto {
  @ApiProperty({ type: [WorkerFinishedItemDto], description: 'How each finish went, in the order sent.' })
  items: WorkerFinishedItemDto[];
}

/** 200 answer of finish: the row's status after the write, and whether it is final (false: a retry is due). */
export class WorkerFinishAnswerDto {
  @ApiProperty({ description: 'SUCCESS, FAILED, TIMEOUT, CANCELLED, or PENDING (a retry or hand-back).' })
  status: string;
  @ApiProperty({ description: 'True when the instance will not run again.' }) final: boolean;
}

/** 200 answer of claims. */
export class WorkerClaimAnswerDto {
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'The claimed attempts (docs/workers.md).' })
  items: unknown[];
}
