import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope } from '../../metadata/index.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { AuditPageDto, AuditQueryDto, AuditRowDto } from '../dto/audit.dto.js';
import { cursorPage, decodeCursor, instantRange, pageOf } from '../dto/list.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { AuditService } from '../../jobs/index.js';

/** The audit log of this namespace (README "Audit"), for admins. */
@ApiTags('audit')
@Signed()
@RequireScope(Scope.ADMIN)
@Controller('api/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: "Read the namespace's audit log, newest first (paged by cursor, or offset, and limit)",
    description:
      'Who (appId) changed what (action, target), when, with before/after snapshots (secrets redacted). Every ' +
      'filter given must hold; from/to are inclusive.',
  })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiProblem(
    400,
    'A bad query (appId, action, jobId, from, to, offset, limit, cursor; `to` before `from`); `field` names it.',
  )
  async list(@Query() q: AuditQueryDto): Promise<AuditPageDto> {
    const { from, to } = instantRange(q);
    const at = q.cursor === undefined ? undefined : decodeCursor('a', q.cursor, /^[A-Za-z0-9-]{1,36}$/, q.offset);
    const { offset, limit } = pageOf(q);
    const [rows, total] = await this.audit.list({
      appId: q.appId,
      action: q.action,
      from,
      to,
      offset,
      limit: limit + 1, // one more than shown: whether a next page exists
      ...(at ? { after: { at: at.key, id: at.tie } } : {}),
      ...(q.jobId !== undefined ? { targetType: 'job', targetId: q.jobId } : {}),
    });
    const { page, nextCursor } = cursorPage('a', rows, limit, (last) => ({ key: last.createdAt, tie: last.id }));
    return { total, items: page.map((r) => AuditRowDto.of(r)), nextCursor };
  }
}
