import { ApiProperty } from '@nestjs/swagger';
import { BOUNDS } from '../../../common/index.js';
import { OwnerQueryDto } from './owner-query.dto.js';
import { BoundedInt } from './validators.js';

const { logAfter, logLimit, logAttempt } = BOUNDS;

/** What both handler log routes say (docs/long-tasks.md "Handler logs"). */
export const LOGS_DESCRIPTION =
  'What the handler logged with ctx.log, every attempt, each line with its attempt, node, time and level, in the ' +
  'order logged; a running attempt\'s lines show up within about a second. Kept per attempt up to ' +
  'HANDLER_LOG_MAX_LINES lines and HANDLER_LOG_MAX_BYTES bytes (the oldest dropped, a marker line says how many), ' +
  `and for RETENTION_LOGS_MS. Paged by \`after\` (the last id read) and \`limit\` (${logLimit.min}-${logLimit.max}, ` +
  `default ${logLimit.default}).`;

/** `?after=&limit=&attempt=&appId=` of the handler log routes. */
export class LogQueryDto extends OwnerQueryDto {
  @BoundedInt(logAfter, {
    query: true,
    api: {
      description: 'Cursor: the id of the last line already read (`next` of the previous page); lines after it.',
      default: logAfter.default,
    },
  })
  after?: number;

  @BoundedInt(logLimit, { query: true, api: { default: logLimit.default, description: 'Lines per page.' } })
  limit?: number;

  @BoundedInt(logAttempt, { query: true, api: { description: 'Only the lines of this attempt (1 = the first).' } })
  attempt?: number;
}

/** One handler log line. */
export class LogLineDto {
  @ApiProperty({ description: 'Line id: ascending in the order lines were logged; the paging cursor.' })
  id: number;
  @ApiProperty({ description: 'The attempt that logged it, from 1.' }) attempt: number;
  @ApiProperty({ description: 'The executor node that ran the attempt.' }) nodeId: string;
  @ApiProperty({ description: 'When the handler logged it (ISO-8601, UTC).' }) at: string;
  @ApiProperty({ enum: ['info', 'warn', 'error'], description: 'The log level the handler used.' }) level: string;
  @ApiProperty({
    description:
      'The text (arguments joined like console.log, objects as JSON), cut at 4,000 characters with a marker. When ' +
      "an attempt's bounds dropped lines, its first line is a warn marker saying how many.",
  })
  line: string;
}

/** GET …/logs answer. */
export class LogPageDto {
  @ApiProperty({ type: [LogLineDto], description: 'This page of lines, oldest first; at most `limit`.' })
  items: LogLineDto[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'The `after` of the next page, or null when there are no more lines now (a running attempt may add some: ' +
      'poll again with after = the last id read).',
  })
  next: number | null;
}
