import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, Matches } from 'class-validator';
import { BOUNDS } from '../../../common/index.js';
import { TriggerType } from '../../metadata/index.js';
import { FireNoteKind, type PreviewedFire } from '../../trigger/index.js';
import { BoundedInt, BoundedString } from './validators.js';

/** Trigger types a preview takes: those of a job definition (an API job has no schedule). */
const PREVIEW_TRIGGER_TYPES = [TriggerType.CRON, TriggerType.FIXED_RATE, TriggerType.FIXED_DELAY, TriggerType.ONE_SHOT];
const { triggerExpr, timeZone, previewCount } = BOUNDS;
/** Earliest and latest accepted `from` (exclusive end), epoch ms UTC: a bounded, printable range. */
export const PREVIEW_FROM_MIN_MS = Date.UTC(1970, 0, 1);
export const PREVIEW_FROM_MAX_MS = Date.UTC(3000, 0, 1);

/** POST /api/schedules/preview body: a trigger and where to start. Stores nothing. */
export class SchedulePreviewDto {
  @ApiPropertyOptional({
    enum: PREVIEW_TRIGGER_TYPES,
    default: TriggerType.CRON,
    description:
      'How triggerExpr is read, as on a job (default CRON). FIXED_RATE and FIXED_DELAY count from `from`; ' +
      'FIXED_DELAY assumes each run takes no time (the next fire = the previous fire + delay), since the real ' +
      'next fire waits for the finish. ONE_SHOT answers its instant when after `from`, else nothing.',
  })
  @IsOptional()
  @IsIn(PREVIEW_TRIGGER_TYPES, { message: `triggerType must be one of ${PREVIEW_TRIGGER_TYPES.join(', ')}` })
  triggerType?: TriggerType;

  @BoundedString(triggerExpr, {
    required: true,
    api: {
      description:
        `The expression, with the rules of a job's triggerExpr (at most ${triggerExpr.max} characters): CRON 5 ` +
        'fields (min hour dom mon dow) or 6 (seconds first), read in timeZone; FIXED_RATE / FIXED_DELAY a period ' +
        'in ms (1000 to 31536000000, digits only); ONE_SHOT an ISO-8601 instant with Z or an offset. A cron with ' +
        'no fire within 8 years of 2024-01-01 (e.g. 30 February) is a 400 naming triggerExpr.',
      example: '0 30 2 * * *',
    },
  })
  triggerExpr: string;

  @BoundedString(timeZone, {
    api: {
      description: 'IANA time zone the cron is read in (default UTC), as on a job; the host TZ never matters.',
      example: 'America/New_York',
    },
  })
  timeZone?: string;

  @ApiPropertyOptional({
    description:
      'The instant to preview from (exclusive), ISO-8601 with Z or an offset, from 1970-01-01 to before ' +
      '3000-01-01 UTC (default: now).',
    example: '2026-03-07T00:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO-8601 instant' })
  @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'from needs Z or an offset' })
  from?: string;

  @BoundedInt(previewCount, {
    intMessage: 'count must be an integer',
    api: {
      description:
        `How many fire times to answer, ${previewCount.min}-${previewCount.max} (default ${previewCount.default}). ` +
        'Fewer come back when the trigger stops (ONE_SHOT) or a cron has no next fire within 8 years (the ' +
        'scheduler search horizon).',
      default: previewCount.default,
      example: 3,
    },
  })
  count?: number;
}

/** What a clock change did to one fire. */
export class FireNoteDto {
  @ApiProperty({
    enum: Object.values(FireNoteKind),
    description:
      'GAP_SHIFTED: the wall time does not exist (spring forward) and a fixed-time cron fires later by the ' +
      "gap's length (02:30 → 03:30; 30 min in Lord Howe). GAP_SKIPPED: a cron with * in its minute or hour field " +
      'follows elapsed time, so its wall times in a gap did not fire; on the first fire after the gap. ' +
      'OVERLAP_FIRST_ONLY: the wall time happens twice (fall back) and a fixed-time cron fires once, at the ' +
      'first. OVERLAP_BOTH: the wall time happens twice and a cron with * in its minute or hour field fires at ' +
      'both (the detail says which this is). SAME_INSTANT: two matching wall times fall on this one instant (a ' +
      'shifted one meets a real one), which fires once. docs/trigger.md "Preview and DST notes".',
  })
  kind: FireNoteKind;

  @ApiProperty({
    description: 'The same in words: the wall time, date, zone, the clock change and what the engine does.',
    example:
      '02:30 does not exist on 2026-03-08 in America/New_York (clocks go forward from 02:00 to 03:00, UTC-05:00 → ' +
      'UTC-04:00): fires 1 h later, at 03:30 (UTC-04:00)',
  })
  detail: string;
}

/** One fire time, with its wall-clock time and, when a clock change moved or merged it, a note. */
export class FireTimeDto {
  @ApiProperty({ description: 'The fire instant, ISO-8601 UTC with milliseconds.', example: '2026-03-08T07:30:00Z' })
  fireTime: string;

  @ApiProperty({
    description:
      'The same instant as wall-clock time in the zone with its UTC offset then (milliseconds only when not 0).',
    example: '2026-03-08T03:30:00-04:00',
  })
  local: string;

  @ApiPropertyOptional({
    type: FireNoteDto,
    description: 'Only on a fire that a clock change (DST or another zone offset change) moved or merged.',
  })
  note?: FireNoteDto;

  static of(f: PreviewedFire): FireTimeDto {
    const base = { fireTime: new Date(f.fireTime).toISOString(), local: f.local };
    return f.note ? { ...base, note: { kind: f.note.kind, detail: f.note.detail } } : base;
  }
}

/** POST /api/schedules/preview answer. */
export class SchedulePreviewViewDto {
  @ApiProperty({ enum: PREVIEW_TRIGGER_TYPES, description: 'The trigger type previewed (CRON when not given).' })
  triggerType: string;

  @ApiProperty({ description: 'The expression previewed, trimmed.', example: '0 30 2 * * *' })
  triggerExpr: string;

  @ApiProperty({ description: 'The zone the times were computed in (UTC when not given).', example: 'Asia/Tokyo' })
  timeZone: string;

  @ApiProperty({
    description: 'The instant previewed from (exclusive), ISO-8601 UTC with milliseconds.',
    example: '2026-03-07T00:00:00.000Z',
  })
  from: string;

  @ApiProperty({
    type: [FireTimeDto],
    description:
      'The next fire times after `from`, ascending, as the scheduler computes them (its own search); at most count.',
  })
  fireTimes: FireTimeDto[];
}
