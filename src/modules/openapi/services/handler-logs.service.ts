import { Injectable } from '@nestjs/common';
import { BOUNDS } from '../../../common/index.js';
import { JobLogRepository } from '../../metadata/index.js';
import { type LogPageDto, type LogQueryDto } from '../dto/log.dto.js';
import { iso } from '../views/iso.js';

/** Pages of an instance's handler log lines (docs/long-tasks.md "Handler logs"); the caller checked ownership. */
@Injectable()
export class HandlerLogsService {
  constructor(private readonly lines: JobLogRepository) {}

  /** The page of instance `instanceId`'s lines `q` asks for; `next` is null when no line follows it. */
  async page(instanceId: string, q: LogQueryDto): Promise<LogPageDto> {
    const limit = q.limit ?? BOUNDS.logLimit.default;
    const rows = await this.lines.page(instanceId, q.after ?? BOUNDS.logAfter.default, limit + 1, q.attempt);
    const items = rows.slice(0, limit).map((r) => ({ ...r, at: iso(r.at) as string }));
    return { items, next: rows.length > limit ? items[items.length - 1].id : null };
  }
}
