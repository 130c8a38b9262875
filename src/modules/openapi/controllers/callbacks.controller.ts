import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MAX_CALLBACK_REGISTRATIONS, MAX_REDELIVER_BY_HOST, MAX_REDELIVER_SINCE_MS } from '../../../common/index.js';
import { CallbackHosts, CallbackRedeliver, CallbackRegistrations } from '../../callbacks/index.js';
import { type Caller } from '../../jobs/index.js';
import { Scope } from '../../metadata/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import {
  CallbackRegistrationListDto,
  CallbackRegistrationViewDto,
  RegisterCallbackDto,
} from '../dto/callback.dto.js';
import {
  CallbackHostListQueryDto,
  CallbackHostPageDto,
  RedeliverHostDto,
  RedeliverHostResultDto,
} from '../dto/callback-host.dto.js';
import { CallbackHandlerQueryDto, CallbackOwnerQueryDto } from '../dto/owner-query.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { DeliveryListQueryDto, DeliveryPageDto } from '../dto/delivery-list.dto.js';
import { cursorPage, decodeCursor, pageOf } from '../dto/list.dto.js';
import { ReadGate } from '../services/read-gate.js';
import { toCallbackView, toRegistrationView } from '../views/callback-view.js';
import { iso } from '../views/iso.js';

const OWN_APP =
  "The calling app's registrations only: another app never sees or changes them (an admin names another app " +
  'with ?appId=).';
const REGISTER_DESCRIPTION =
  "Sets the app's default callback URL (no handler) or the one for a handler name, replacing the one it had. A " +
  "final state goes to the task's or job's callbackUrl, else the registration for its handler, else the default " +
  '(docs/callbacks.md "Where a callback goes"); a registration applies to every instance that finishes after it ' +
  `commits. At most ${MAX_CALLBACK_REGISTRATIONS} registrations per app (a 409 naming handler beyond). Deliveries ` +
  'are signed with the app secret: X-Tickwheel-Signature is v1=<hex HMAC-SHA256(secret, "<X-Tickwheel-Timestamp>.' +
  '<raw body>")>; verifyCallback of the client checks it (docs/callbacks.md "Verifying"). Audit-logged ' +
  `(CALLBACK_REGISTER). ${OWN_APP}`;

/** An app's callback registrations (docs/callbacks.md, docs/api.md `/api/callbacks`). */
@ApiTags('callbacks')
@Signed()
@Controller('api/callbacks')
export class CallbacksController {
  constructor(
    private readonly registrations: CallbackRegistrations,
    private readonly deliveries: CallbackRedeliver,
    private readonly hosts: CallbackHosts,
    private readonly gate: ReadGate,
  ) {}

  @Get('hosts')
  @RequireScope(Scope.TASKS_READ)
  @ApiOperation({
    summary: "The app's receiving hosts and their state (up, down)",
    description:
      "Each host:port the calling app's callbacks failed at least once (an admin names another app with ?appId=), " +
      'with its state: down after CALLBACK_HOST_DOWN_AFTER failed tries in a row, the app\'s deliveries to it then ' +
      'end CALLBACK_FAILED (HOST_DOWN: …) but one kept for the probe; up again once it answers. See when a host is ' +
      'back, then redeliver what failed meanwhile (POST /api/callbacks/hosts/redeliver).',
  })
  @ApiOkResponse({ type: CallbackHostPageDto })
  @ApiProblem(400, 'A bad ?appId=, offset or limit (`field` names it).')
  async hostList(@CurrentCaller() caller: Caller, @Query() q: CallbackHostListQueryDto): Promise<CallbackHostPageDto> {
    const { offset, limit } = pageOf(q);
    const [rows, total] = await this.hosts.list(caller, q.appId, offset, limit);
    return {
      total,
      items: rows.map((h) => ({
        host: h.host,
        state: h.downSince === null ? 'up' : 'down',
        consecutiveFailures: h.consecutiveFailures,
        downSince: iso(h.downSince),
        nextProbeAt: iso(h.nextProbeAt),
        lastError: h.lastError,
        updatedAt: iso(h.updatedAt) as string,
      })),
    };
  }

  @Post('hosts/redeliver')
  @HttpCode(202)
  @RequireScope(Scope.TASKS_WRITE)
  @ApiOperation({
    summary: "Send again the app's failed callbacks to a host since a time",
    description:
      `Redelivers at most ${MAX_REDELIVER_BY_HOST} of the app's deliveries to host that ended CALLBACK_FAILED at ` +
      `or after since (at most ${MAX_REDELIVER_SINCE_MS / 86_400_000} days back), oldest first, each as the ` +
      'single redeliver does: PENDING, attempts 0, due now, the same deliveryId (receivers deduplicate on it). ' +
      'The host is up again for the app (you say it is back; three failed tries take it down again). more: true ' +
      'when more match (call again). One audit row per call (CALLBACK_REDELIVER_HOST). An admin names another ' +
      'app with ?appId=.',
  })
  @ApiAcceptedResponse({ type: RedeliverHostResultDto })
  @ApiProblem(400, 'A bad host, since (too far back, in the future) or ?appId= (`field` names it).')
  @ApiProblem(404, 'An admin named an app that has no client.')
  async redeliverHost(
    @CurrentCaller() caller: Caller,
    @Body() dto: RedeliverHostDto,
    @Query() q: CallbackOwnerQueryDto,
  ): Promise<RedeliverHostResultDto> {
    return this.hosts.redeliver(caller, q.appId, dto.host.toLowerCase(), Date.parse(dto.since));
  }

  @Get('deliveries')
  @RequireScope(Scope.TASKS_READ)
  @ApiOperation({
    summary: 'Callback deliveries, newest first (paged by cursor, or offset, and limit)',
    description:
      "The calling app's deliveries in this namespace (an admin's list: every app's, or those of ?appId=), " +
      'optionally in one state; each as a task shows its `callback`, with the instance, its requestId and job, the ' +
      'host and the times. The rows are read from the (namespace, state, next_attempt_at) index and sorted by ' +
      'createdAt; retention removes settled deliveries with their instances.',
  })
  @ApiOkResponse({ type: DeliveryPageDto })
  @ApiProblem(400, 'A bad query (state, appId, offset, limit, cursor); `field` names it.')
  async deliveryList(@CurrentCaller() caller: Caller, @Query() q: DeliveryListQueryDto): Promise<DeliveryPageDto> {
    const at = q.cursor === undefined ? undefined : decodeCursor('d', q.cursor, /^[A-Za-z0-9-]{1,36}$/, q.offset);
    const { offset, limit } = pageOf(q);
    const after = at && { createdAt: at.key, id: at.tie };
    const { rows, total } = await this.gate.run(caller.appId, () =>
      this.deliveries.list(caller, q.appId, q.state, { offset, limit: limit + 1, after }),
    );
    const key = ({ delivery: d }: (typeof rows)[number]) => ({ key: d.createdAt, tie: d.id });
    const { page, nextCursor } = cursorPage('d', rows, limit, key);
    return {
      total,
      items: page.map(({ delivery: d, requestId, jobId }) => ({
        ...toCallbackView(d),
        instanceId: d.instanceId,
        appId: d.appId,
        requestId,
        jobId,
        host: d.host,
        createdAt: iso(d.createdAt) as string,
        updatedAt: iso(d.updatedAt) as string,
      })),
      nextCursor,
    };
  }

  @Post('register')
  @HttpCode(200)
  @RequireScope(Scope.TASKS_WRITE)
  @ApiOperation({ summary: 'Register a callback URL (default or per handler)', description: REGISTER_DESCRIPTION })
  @ApiOkResponse({ type: CallbackRegistrationViewDto })
  @ApiProblem(400, 'A refused url (field url, with the reason), a bad handler or a bad ?appId= (`field` names it).')
  @ApiProblem(409, `The app holds ${MAX_CALLBACK_REGISTRATIONS} registrations already (field handler).`)
  @ApiProblem(404, 'An admin named an app that has no client.')
  async register(
    @CurrentCaller() caller: Caller,
    @Body() dto: RegisterCallbackDto,
    @Query() q: CallbackOwnerQueryDto,
  ): Promise<CallbackRegistrationViewDto> {
    return toRegistrationView(await this.registrations.register(caller, dto.url, dto.handler, q.appId));
  }

  @Get()
  @RequireScope(Scope.TASKS_READ)
  @ApiOperation({ summary: "The app's callback registrations", description: OWN_APP })
  @ApiOkResponse({ type: CallbackRegistrationListDto })
  @ApiProblem(400, 'A bad ?appId= (field appId).')
  async list(@CurrentCaller() caller: Caller, @Query() q: CallbackOwnerQueryDto): Promise<CallbackRegistrationListDto> {
    const items = (await this.registrations.list(caller, q.appId)).map(toRegistrationView);
    return { total: items.length, items };
  }

  @Delete()
  @HttpCode(204)
  @RequireScope(Scope.TASKS_WRITE)
  @ApiOperation({
    summary: 'Remove a callback registration',
    description:
      "Removes the registration of ?handler= (omitted: the app's default); instances that finish after it use the " +
      `next rule. Deliveries already written keep their URL. Audit-logged (CALLBACK_DELETE). ${OWN_APP}`,
  })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiProblem(400, 'A bad ?handler= or ?appId= (`field` names it).')
  @ApiProblem(404, 'The app has no registration for this handler (or no default).')
  async remove(@CurrentCaller() caller: Caller, @Query() q: CallbackHandlerQueryDto): Promise<void> {
    await this.registrations.remove(caller, q.handler, q.appId);
  }
}
