import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CorruptJson, describeCorruptRow, JobDefinition } from '../../metadata/index.js';
import { describeFires } from '../../trigger/index.js';
import { iso } from '../views/iso.js';
import { FireTimeDto } from './schedule.dto.js';

/** A job definition as the API shows it; times ISO-8601 UTC. */
export class JobViewDto {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The app that owns the job (created it).' }) appId: string;
  @ApiProperty() code: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty() handler: string;
  @ApiProperty() triggerType: string;
  @ApiProperty({ nullable: true, type: String }) triggerExpr: string | null;
  @ApiProperty() timeZone: string;
  @ApiProperty() params: unknown;
  @ApiProperty() routingStrategy: string;
  @ApiProperty({ nullable: true, type: String }) routingKey: string | null;
  @ApiProperty() shardTotal: number;
  @ApiProperty({ nullable: true, type: [Object] }) shardParams: unknown[] | null;
  @ApiProperty() misfirePolicy: string;
  @ApiProperty() overlapPolicy: string;
  @ApiProperty({ description: '0 = no limit' }) maxConcurrency: number;
  @ApiProperty() timeoutMs: number;
  @ApiProperty({ description: 'Silence after which a running handler is stuck, ms (docs/long-tasks.md); 0 = none.' })
  heartbeatTimeoutMs: number;
  @ApiProperty() retryMax: number;
  @ApiProperty() retryBackoffMs: number;
  @ApiProperty() retryBackoffKind: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "Where each new instance's final state is POSTed (copied into the instance when it is created); null: the " +
      "app's registrations decide (docs/callbacks.md).",
  })
  callbackUrl: string | null;
  @ApiProperty({ description: 'OK, or ERROR when the next fire could not be computed (see scheduleError).' })
  scheduleState: string;
  @ApiProperty({ nullable: true, type: String }) scheduleError: string | null;
  @ApiProperty({ nullable: true, type: String }) nextFireTime: string | null;
  @ApiProperty({ nullable: true, type: String }) lastFireTime: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'When a ONE_SHOT job made its fire; it is then disabled for good (resume is a 409).',
  })
  completedAt: string | null;
  @ApiProperty({
    type: [String],
    description: 'The next 5 fire times from now (for FIXED_DELAY assuming zero run time), even while paused.',
  })
  nextFireTimes: string[];
  @ApiProperty({
    type: [FireTimeDto],
    description:
      'The same fire times as nextFireTimes, each with its wall-clock time in timeZone and, when a clock change ' +
      'moved or merged it, a note (as POST /api/schedules/preview answers).',
  })
  nextFires: FireTimeDto[];
  @ApiProperty() version: number;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
  @ApiPropertyOptional({
    description:
      'Present when stored params or shardParams cannot be read (a corrupt row): they are shown as null; send new ' +
      'ones with PATCH.',
  })
  note?: string;

  static of(d: JobDefinition, preview: number[]): JobViewDto {
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
      timeoutMs: d.timeoutMs,
      heartbeatTimeoutMs: d.heartbeatTimeoutMs,
      retryMax: d.retryMax,
      retryBackoffMs: d.retryBackoffMs,
      retryBackoffKind: d.retryBackoffKind,
      enabled: d.enabled,
      callbackUrl: d.callbackUrl ?? null,
      scheduleState: d.scheduleState,
      scheduleError: d.scheduleError,
      nextFireTime: iso(d.nextFireTime),
      lastFireTime: iso(d.lastFireTime),
      completedAt: iso(d.completedAt ?? null),
      nextFireTimes: preview.map((t) => new Date(t).toISOString()),
      nextFires: describeFires(d, preview, null).map((f) => FireTimeDto.of(f)),
      version: d.version,
      createdAt: iso(d.createdAt) as string,
      updatedAt: iso(d.updatedAt) as string,
      ...(corrupt !== null ? { note: `${corrupt}: shown as null; send new ones with PATCH` } : {}),
    };
  }
}
