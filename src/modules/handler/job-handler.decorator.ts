import { DiscoveryService } from '@nestjs/core';

/** `@Injectable() @JobHandler('report.daily') class R implements JobHandlerImpl`: unique names (docs/execution.md). */
export const JobHandler = DiscoveryService.createDecorator<string>();
