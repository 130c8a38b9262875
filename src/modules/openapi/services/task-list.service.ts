import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type Caller, namedApp } from '../../jobs/index.js';
import { ReadGate } from './read-gate.js';
import { InstanceReads, type JobInstance, type TaskFilter } from '../../metadata/index.js';

/** What a task list keeps besides its owner (TaskFilter without the scope). */
export type TaskListFilter = Omit<TaskFilter, 'namespace' | 'appId'>;

/**
 * GET /api/tasks (docs/api.md "Lists"): the tasks (instances of no job) of this namespace the caller may see: its
 * own app's; an admin's, every app's or those of `?appId=`. Reads only.
 */
@Injectable()
export class TaskListService {
  constructor(
    private readonly instances: InstanceReads,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gate: ReadGate,
  ) {}

  /**
   * `limit` tasks matching `filter`, newest created first, after skipping `offset` or after `after` (keyset), and
   * how many match in all. @throws ForbiddenError(admin) when a non-admin names another app.
   */
  async page(
    caller: Caller,
    appId: string | undefined,
    filter: TaskListFilter,
    page: { offset: number; limit: number; after?: { createdAt: number; id: string } },
  ): Promise<{ rows: JobInstance[]; total: number }> {
    const f: TaskFilter = { ...filter, namespace: this.config.namespace, appId: namedApp(caller, appId, true) };
    const [rows, total] = await this.gate.run(caller.appId, () =>
      Promise.all([this.instances.listTasks(f, page.offset, page.limit, page.after), this.instances.countTasks(f)]),
    );
    return { rows, total };
  }
}
