import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope } from '../../metadata/index.js';
import { type Caller } from '../../jobs/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import {
  ClientCredentialsDto,
  ClientListQueryDto,
  ClientPageDto,
  ClientViewDto,
  CreateClientDto,
  UpdateClientDto,
} from '../dto/client.dto.js';
import { pageOf } from '../dto/list.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { ClientsService } from '../services/clients.service.js';

const NO_CLIENT = 'No client has this app id.';
const CACHE_NOTE =
  'Every process applies the change at once (a clients-changed message); one that misses it, within its ' +
  "30-s client cache. Disabling pauses the app's jobs (pausedReason CLIENT_DISABLED) and holds its waiting work; " +
  'enabling resumes them (docs/tenancy.md "Disabled clients").';

/**
 * API clients (README "Tenancy and scopes"), for admins: clients are shared by every namespace of the
 * database. A secret is shown only in the answer to a create or a rotation, never anywhere else.
 */
@ApiTags('clients')
@Signed()
@RequireScope(Scope.ADMIN)
@Controller('api/clients')
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create an API client',
    description:
      'Default scopes: tasks:read, tasks:write, jobs:read, jobs:write, nodes:read. The answer holds the secret: ' +
      'the only time it is shown.',
  })
  @ApiCreatedResponse({ type: ClientCredentialsDto })
  @ApiProblem(400, 'Invalid body (`field` names the part at fault: appId, scopes, a limit), or a reserved appId.')
  @ApiProblem(409, 'The app id exists (field appId).')
  create(@CurrentCaller() caller: Caller, @Body() dto: CreateClientDto): Promise<ClientCredentialsDto> {
    return this.clients.create(caller, dto);
  }

  @Get()
  @ApiOperation({ summary: 'List API clients by app id (never their secrets)' })
  @ApiOkResponse({ type: ClientPageDto })
  @ApiProblem(400, 'A bad query (offset or limit); `field` names it.')
  list(@Query() q: ClientListQueryDto): Promise<ClientPageDto> {
    const { offset, limit } = pageOf(q);
    return this.clients.list(offset, limit);
  }

  @Get(':appId')
  @ApiOperation({ summary: 'Read one API client: scopes, limits, enabled (never its secret)' })
  @ApiOkResponse({ type: ClientViewDto })
  @ApiProblem(404, NO_CLIENT)
  get(@Param('appId') appId: string): Promise<ClientViewDto> {
    return this.clients.get(appId);
  }

  @Patch(':appId')
  @ApiOperation({
    summary: "Change a client's scopes, limits (null = the setting's default) or enabled",
    description: `An admin cannot disable itself or drop its own admin scope. ${CACHE_NOTE}`,
  })
  @ApiOkResponse({ type: ClientViewDto })
  @ApiProblem(400, 'Invalid change (`field` names it: scopes, enabled, a limit, egressAllow).')
  @ApiProblem(
    403,
    'The caller lacks the admin scope, would disable itself or drop its own admin scope, or would add to its own ' +
      'client a scope it lacks.',
  )
  @ApiProblem(404, NO_CLIENT)
  update(
    @CurrentCaller() caller: Caller,
    @Param('appId') appId: string,
    @Body() dto: UpdateClientDto,
  ): Promise<ClientViewDto> {
    return this.clients.update(caller, appId, dto);
  }

  @Post(':appId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give the client a new secret (shown once in this answer); the old one stops working',
    description: CACHE_NOTE,
  })
  @ApiOkResponse({ type: ClientCredentialsDto })
  @ApiProblem(404, NO_CLIENT)
  rotate(@CurrentCaller() caller: Caller, @Param('appId') appId: string): Promise<ClientCredentialsDto> {
    return this.clients.rotateSecret(caller, appId);
  }
}
