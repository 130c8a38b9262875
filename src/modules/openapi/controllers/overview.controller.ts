import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type Caller, hasScope } from '../../jobs/index.js';
import { Scope } from '../../metadata/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { AnySignedCaller, RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { OverviewDto, OverviewQueryDto, WhoamiDto } from '../dto/overview.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { OverviewService } from '../services/overview.service.js';

const OVERVIEW_TEXT =
  'Instances (fires and tasks) that reached a final state in the last 24 hours, by status and by hour (the 24 whole ' +
  'UTC hours ending with the current one, up to now), the failure rate, what runs now (the count and the 20 newest ' +
  "starts) and what waits (PENDING, WAITING, DISPATCHED). The caller's app; an admin's figures cover the " +
  'namespace, or the app of ?appId=. Read from the finished_at index (the window) and the (status, fire_time) or ' +
  '(app_id, status) index (the rest).';

/** Who am I, and how is my work doing (docs/api.md "Whoami", "Overview"): reads only. */
@ApiTags('overview')
@Signed()
@Controller('api')
export class OverviewController {
  constructor(
    private readonly overviews: OverviewService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('whoami')
  @AnySignedCaller()
  @ApiOperation({
    summary: 'The calling app, its namespace and scopes',
    description:
      'What the signature says: the app id, this deployment\'s namespace, the client\'s scopes and whether it is an ' +
      'admin. Any signed caller may read it, whatever its scopes (no 403); it reads no table.',
  })
  @ApiOkResponse({ type: WhoamiDto })
  whoami(@CurrentCaller() caller: Caller): WhoamiDto {
    return {
      appId: caller.appId,
      namespace: this.config.namespace,
      scopes: Object.values(Scope).filter((s) => caller.scopes.has(s)),
      admin: hasScope(caller, Scope.ADMIN),
    };
  }

  @Get('overview')
  @RequireScope(Scope.TASKS_READ)
  @ApiOperation({ summary: 'What finished in the last 24 hours, what runs and waits now', description: OVERVIEW_TEXT })
  @ApiOkResponse({ type: OverviewDto })
  @ApiProblem(400, 'A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]).')
  overview(@CurrentCaller() caller: Caller, @Query() q: OverviewQueryDto): Promise<OverviewDto> {
    return this.overviews.overview(caller, q.appId);
  }
}
