import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, Matches } from 'class-validator';
import { BOUNDS } from '../../../common/index.js';
import { AuditLog } from '../../metadata/index.js';
import { AuditAction } from '../../jobs/index.js';
import { CursorListQueryDto } from './list.dto.js';
import { AppIdQuery } from './owner-query.dto.js';
import { BoundedString } from './validators.js';

/** GET /api/audit query: every filter given must hold. */
export class AuditQueryDto extends CursorListQueryDto {
  @AppIdQuery('Rows written by this app (who made the change).')
  appId?: string;

  @BoundedString(BOUNDS.jobId, {
    api: { description: 'Rows about this job (its id, not its code): its changes, runs and instance cancels.' },
  })
  jobId?: string;

  @ApiPropertyOptional({
    enum: AuditAction,
    description: 'One action (README "Audit"); an unknown one is a 400, not an empty page.',
  })
  @IsOptional()
  @IsIn(Object.values(AuditAction), { message: `action must be one of ${Object.values(AuditAction).join(', ')}` })
  action?: AuditAction;

  @ApiPropertyOptional({
    description: 'Rows written at or after this ISO-8601 instant.',
    example: '2026-12-01T00:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO-8601 instant' })
  @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'from needs Z or an offset' })
  from?: string;

  @ApiPropertyOptional({
    description: 'Rows written at or before this ISO-8601 instant.',
    example: '2026-12-02T00:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO-8601 instant' })
  @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'to needs Z or an offset' })
  to?: string;
}

/** One audit row. */
export class AuditRowDto {
  @ApiProperty({ description: 'The audit row id (UUID).' }) id: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Who: the app that made the change (null: an operator's CLI or the first start).",
  })
  appId: string | null;
  @ApiProperty({ description: 'What was done, e.g. JOB_CREATE, TASK_CANCEL, CLIENT_ROTATE_SECRET.' }) action: string;
  @ApiProperty({ description: 'job, task, client or crontab.' }) targetType: string;
  @ApiProperty({ description: 'The id of what changed (job id, instance id, app id, file name).' }) targetId: string;
  @ApiProperty({ description: 'What it was (secrets redacted), or null.' }) before: unknown;
  @ApiProperty({ description: 'What it became (secrets redacted), or null.' }) after: unknown;
  @ApiProperty({ description: 'When it was done, UTC ISO-8601 (ms).' }) createdAt: string;

  static of(r: AuditLog): AuditRowDto {
    return {
      id: r.id,
      appId: r.appId,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      before: r.before ?? null,
      after: r.after ?? null,
      createdAt: new Date(r.createdAt).toISOString(),
    };
  }
}

/** A page of audit rows, newest first. */
export class AuditPageDto {
  @ApiProperty({ description: 'How many rows match the filters in all (every page).' }) total: number;
  @ApiProperty({ type: [AuditRowDto], description: 'This page, newest first; at most `limit` rows.' })
  items: AuditRowDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Give as `cursor` for the next page; null when this page is the last.',
  })
  nextCursor: string | null;
}
