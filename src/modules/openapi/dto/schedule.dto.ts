import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, Matches } from 'class-validator';
import { BOUNDS } from '../../../common/index.js';
import { TriggerType } from '../../metadata/index.js';
import { FireNoteKind, type PreviewedFire } from '../../trigger/index.js';
import { AppIdQuery } from './owner-query.dto.js';
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

/** Jobs one load reads at most (by code, then owner). */
export const LOAD_MAX_JOBS = 50_000;

/** GET /api/schedules/load query. */
export class ScheduleLoadQueryDto {
  @BoundedInt(BOUNDS.hours, {
    query: true,
    api: {
      default: BOUNDS.hours.default,
      description: `Hours ahead to count, ${BOUNDS.hours.min}-${BOUNDS.hours.max}, from the start of this minute.`,
    },
  })
  hours?: number;

  @BoundedInt(BOUNDS.herd, {
    query: true,
    api: {
      default: BOUNDS.herd.default,
      description: `Fires one second needs to be a herd, ${BOUNDS.herd.min}-${BOUNDS.herd.max}.`,
    },
  })
  herd?: number;

  @AppIdQuery(
    "Admins only: this app's jobs (default for an admin: every app's of the namespace; for anyone else: its own). " +
      "Another app's id without the admin scope is a 403.",
  )
  appId?: string;
}

/** One second where many fires fall together. */
export class HerdDto {
  @ApiProperty({ description: 'The second, UTC ISO-8601 (its start).' }) at: string;
  @ApiProperty({ description: 'Fires in it (a fire of a sharded job counts once).' }) fires: number;
  @ApiProperty({ type: [String], description: 'Codes of its jobs, the first 10 by code.' }) jobs: string[];
}

/** GET /api/schedules/load answer. */
export class ScheduleLoadDto {
  @ApiProperty({ description: 'Start of the span: the start of the current minute, UTC ISO-8601.' }) from: string;
  @ApiProperty({ description: 'End of the span (exclusive): from + hours, UTC ISO-8601.' }) to: string;
  @ApiProperty({ description: 'Width of one bucket, ms: always 60000 (a minute).', example: 60_000 })
  bucketMs: number;
  @ApiProperty({
    type: [Number],
    description:
      'Fires per minute, from `from`, hours × 60 of them. A fire of a sharded job counts once (it makes ' +
      'shardTotal instances).',
  })
  buckets: number[];
  @ApiProperty({
    type: [HerdDto],
    description:
      'Seconds where at least `herd` fires fall together: the 50 largest (ties: the earlier), in time order. Fires ' +
      "counted from a job's rate (see estimatedJobs) are in none.",
  })
  herds: HerdDto[];
  @ApiProperty({ description: 'Jobs counted: enabled, with a next fire and a schedule that computes.' }) jobs: number;
  @ApiProperty({
    description:
      'Of them, jobs denser than the per-schedule cap (2,000 fires iterated, less when many schedules share a ' +
      "budget of 50,000): past the cap, the job's fires are counted from its rate over the span it was iterated.",
  })
  estimatedJobs: number;
}
