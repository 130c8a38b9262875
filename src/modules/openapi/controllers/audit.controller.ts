import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationError } from '../../../common/index.js';
import { Scope } from '../../metadata/index.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { AuditPageDto, AuditQueryDto, AuditRowDto } from '../dto/audit.dto.js';
import { AuditService } from '../../jobs/index.js';
import { ApiProblem } from '../dto/problem.dto.js';

/** The audit log of this namespace (README "Audit"), for admins. */
@ApiTags('audit')
@Signed()
@RequireScope(Scope.ADMIN)
@Controller('api/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: "Read the namespace's audit log, newest first",
    description:
      'Who (appId) changed what (action, target), when, with before/after snapshots (secrets redacted). Every ' +
      'filter given must hold; from/to are inclusive.',
  })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiProblem(400, 'A bad query (appId, action, jobId, from, to, offset, limit; `to` before `from`); `field` names it.')
  async list(@Query() q: AuditQueryDto): Promise<AuditPageDto> {
    const from = q.from === undefined ? undefined : Date.parse(q.from);
    const to = q.to === undefined ? undefined : Date.parse(q.to);
    if (from !== undefined && to !== undefined && to < from)
      throw new ValidationError('to', '`to` must not be before `from`');
    const [rows, total] = await this.audit.list({
      appId: q.appId,
      action: q.action,
      from,
      to,
      offset: q.offset ?? 0,
      limit: q.limit ?? 50,
      ...(q.jobId !== undefined ? { targetType: 'job', targetId: q.jobId } : {}),
    });
    return { total, items: rows.map((r) => AuditRowDto.of(r)) };
  }
}
