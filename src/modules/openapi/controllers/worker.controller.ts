import { AnswerWaits } from '../filters/answer-deadline.interceptor.js';
import { Body, Controller, Delete, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationError } from '../../../common/index.js';
import { RemoteAttempts } from '../../execution/index.js';
import { type Caller } from '../../jobs/index.js';
import { Scope } from '../../metadata/index.js';
import { MAX_CLAIM_WAIT_MS, WorkerClaims, WorkerNodes } from '../../workers/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { ApiProblem } from '../dto/problem.dto.js';
import {
  RegisterWorkerDto,
  WorkerCheckpointDto,
  WorkerClaimAnswerDto,
  WorkerClaimDto,
  WorkerFinishAnswerDto,
  WorkerFinishDto,
  WorkerFinishesAnswerDto,
  WorkerFinishesDto,
  WorkerHeartbeatDto,
  WorkerLeasesAnswerDto,
  WorkerLeasesDto,
  WorkerLogsDto,
  WorkerProgressDto,
  WorkerRegisteredDto,
} from '../dto/worker.dto.js';

const BAD = 'A bad body (unknown field, out of its bounds); `field` names it, and nothing changes.';
const NO_NODE = "The node is not this app's, was deregistered or expired (register again); nothing changes.";
const NO_ATTEMPT = `${NO_NODE} Or the instance is not this app's, or another node's running attempt.`;
const STALE = 'The fencing token is stale (the attempt was taken back, cancelled or superseded); nothing was written.';

/**
 * The app worker protocol (docs/workers.md): a worker holding only its app's id and secret registers nodes, claims,
 * renews, reports and finishes attempts of its own app. Every route needs the `worker` scope; a node or instance of
 * another app is a 404 and changes nothing.
 */
@ApiTags('worker')
@Signed()
@RequireScope(Scope.WORKER)
@Controller('api/worker/nodes')
export class WorkerController {
  constructor(
    @Inject(WorkerNodes) private readonly nodes: WorkerNodes,
    @Inject(WorkerClaims) private readonly claims: WorkerClaims,
    @Inject(RemoteAttempts) private readonly attempts: RemoteAttempts,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register an app worker node',
    description:
      "A node of the caller's app advertising `handlers` (never a built-in one) with `capacity`: only the app's " +
      'own instances of those handlers are routed to it. Answers its id and the timings to keep.',
  })
  @ApiCreatedResponse({ type: WorkerRegisteredDto })
  @ApiProblem(400, `${BAD} A built-in handler (noop, http, shell) is refused naming handlers.`)
  @ApiProblem(409, 'The app already has 100 live worker nodes (deregister one first); nothing changes.')
  register(@CurrentCaller() caller: Caller, @Body() dto: RegisterWorkerDto): Promise<WorkerRegisteredDto> {
    return this.nodes.register(caller.appId, dto);
  }

  @Post(':nodeId/heartbeat')
  @HttpCode(204)
  @ApiOperation({
    summary: "A worker node's heartbeat",
    description:
      'Keeps the node live (every heartbeatIntervalMs); `draining: true` stops routing new work to it. Silent for ' +
      'nodeTimeoutMs, the node expires and what it held is taken back.',
  })
  @ApiNoContentResponse({ description: 'Recorded.' })
  @ApiProblem(400, `${BAD} active over the node's capacity names active.`)
  @ApiProblem(404, NO_NODE)
  async heartbeat(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Body() dto: WorkerHeartbeatDto,
  ): Promise<void> {
    await this.nodes.heartbeat(caller.appId, nodeId, dto.active, dto.draining ?? false);
  }

  @Post(':nodeId/claims')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Claim attempts (long poll)',
    description:
      "Up to `max` attempts routed to the node (never more than twice its capacity minus its RUNNING attempts: " +
      'its handlers and the finishes on their way), each ' +
      'RUNNING under a new fencing token and leased until leaseUntil; waits up to `waitMs` when none is queued.',
  })
  @ApiOkResponse({ type: WorkerClaimAnswerDto })
  @ApiProblem(400, BAD)
  @ApiProblem(404, NO_NODE)
  @AnswerWaits('waitMs')
  async claim(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Body() dto: WorkerClaimDto,
  ): Promise<WorkerClaimAnswerDto> {
    if (dto.waitMs > MAX_CLAIM_WAIT_MS)
      throw new ValidationError('waitMs', `waitMs must be at most maxClaimWaitMs (${MAX_CLAIM_WAIT_MS})`);
    const node = await this.nodes.seat(caller.appId, nodeId);
    return { items: await this.claims.claim(node, dto.max, dto.waitMs) };
  }

  @Post(':nodeId/leases')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Renew the leases of running attempts',
    description:
      'Each named attempt still RUNNING on the node under its token is leased until leaseUntil; the others are ' +
      'answered in `lost` (LEASE_LOST, or REVOKED when cancelled): abort their handlers.',
  })
  @ApiOkResponse({ type: WorkerLeasesAnswerDto })
  @ApiProblem(400, BAD)
  @ApiProblem(404, NO_NODE)
  async leases(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Body() dto: WorkerLeasesDto,
  ): Promise<WorkerLeasesAnswerDto> {
    return this.attempts.renew(await this.nodes.seat(caller.appId, nodeId), dto.attempts);
  }

  @Post(':nodeId/attempts/:instanceId/checkpoint')
  @HttpCode(204)
  @ApiOperation({
    summary: "Store an attempt's checkpoint",
    description:
      'Fenced: stored (and the lease renewed) only while the attempt holds the row; a later attempt reads it.',
  })
  @ApiNoContentResponse({ description: 'Stored.' })
  @ApiProblem(400, `${BAD} A state over CHECKPOINT_MAX_BYTES or not JSON names state.`)
  @ApiProblem(404, NO_ATTEMPT)
  @ApiProblem(409, STALE)
  async checkpoint(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Param('instanceId') instanceId: string,
    @Body() dto: WorkerCheckpointDto,
  ): Promise<void> {
    if (dto.state === undefined) throw new ValidationError('state', 'state is required');
    const seat = await this.nodes.seat(caller.appId, nodeId);
    await this.attempts.checkpoint(seat, { instanceId, fencingToken: dto.fencingToken }, dto.state);
  }

  @Post(':nodeId/attempts/:instanceId/progress')
  @HttpCode(204)
  @ApiOperation({
    summary: "Report an attempt's progress",
    description: 'Coalesced as an executor’s (PROGRESS_WRITE_INTERVAL_MS); a stale token’s report is dropped.',
  })
  @ApiNoContentResponse({ description: 'Taken.' })
  @ApiProblem(400, BAD)
  @ApiProblem(404, NO_ATTEMPT)
  async progress(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Param('instanceId') instanceId: string,
    @Body() dto: WorkerProgressDto,
  ): Promise<void> {
    const seat = await this.nodes.seat(caller.appId, nodeId);
    await this.attempts.reportProgress(seat, { instanceId, fencingToken: dto.fencingToken }, dto.fraction, dto.note);
  }

  @Post(':nodeId/attempts/:instanceId/logs')
  @HttpCode(204)
  @ApiOperation({
    summary: "Send an attempt's handler log lines",
    description:
      'Kept in the task’s logs with the bounds of an executor’s (HANDLER_LOG_MAX_LINES, HANDLER_LOG_MAX_BYTES per ' +
      'attempt); lines of a stale token are dropped.',
  })
  @ApiNoContentResponse({ description: 'Taken.' })
  @ApiProblem(400, BAD)
  @ApiProblem(404, NO_ATTEMPT)
  async logs(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Param('instanceId') instanceId: string,
    @Body() dto: WorkerLogsDto,
  ): Promise<void> {
    const seat = await this.nodes.seat(caller.appId, nodeId);
    await this.attempts.log(seat, { instanceId, fencingToken: dto.fencingToken }, dto.lines);
  }

  @Post(':nodeId/attempts/:instanceId/finish')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Finish an attempt',
    description:
      'Records the outcome as an executor’s: success, or retry-or-fail by the instance’s policy (maxAttempts, ' +
      'backoff), SHUTDOWN hands it back. Fenced: a stale token loses (409) and changes nothing.',
  })
  @ApiOkResponse({ type: WorkerFinishAnswerDto })
  @ApiProblem(400, BAD)
  @ApiProblem(404, NO_ATTEMPT)
  @ApiProblem(409, STALE)
  async finish(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Param('instanceId') instanceId: string,
    @Body() dto: WorkerFinishDto,
  ): Promise<WorkerFinishAnswerDto> {
    const seat = await this.nodes.seat(caller.appId, nodeId);
    const { status, final } = await this.attempts.finish(seat, instanceId, dto);
    return { status, final };
  }

  @Post(':nodeId/finishes')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Finish several attempts',
    description:
      'Up to 100 finishes of the node’s attempts in one call, each recorded as the single finish route records ' +
      'it and answered in order with the status that route would have given it (200, 404 or 409).',
  })
  @ApiOkResponse({ type: WorkerFinishesAnswerDto })
  @ApiProblem(400, `${BAD} A repeated instanceId names items[i].instanceId.`)
  @ApiProblem(404, NO_NODE)
  async finishes(
    @CurrentCaller() caller: Caller,
    @Param('nodeId') nodeId: string,
    @Body() dto: WorkerFinishesDto,
  ): Promise<WorkerFinishesAnswerDto> {
    const seen = new Set<string>();
    dto.items.forEach((item, i) => {
      if (seen.has(item.instanceId))
        throw new ValidationError(`items[${i}].instanceId`, `instance ${item.instanceId} is finished twice`);
      seen.add(item.instanceId);
    });
    const seat = await this.nodes.seat(caller.appId, nodeId);
    return { items: await this.attempts.finishMany(seat, dto.items) };
  }

  @Delete(':nodeId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Deregister a worker node',
    description: 'The node leaves the registry; what it still held is taken back by the reconciler.',
  })
  @ApiNoContentResponse({ description: 'Deregistered.' })
  @ApiProblem(404, NO_NODE)
  async deregister(@CurrentCaller() caller: Caller, @Param('nodeId') nodeId: string): Promise<void> {
    await this.nodes.deregister(caller.appId, nodeId);
  }
}
