import { DiscoveryService } from '@nestjs/core';

/**
 * Marks a provider class as the handler of job/task `name` (docs/execution.md). The class implements
 * `JobHandlerImpl.execute(ctx)`. Names are unique per application: a duplicate stops the boot.
 *
 * ```ts
 * @Injectable() @JobHandler('report.daily')
 * export class DailyReport implements JobHandlerImpl { async execute(ctx: JobContext) { ... } }
 * ```
 */
export const JobHandler = DiscoveryService.createDecorator<string>();
