import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ErrorCode, SchedulerError } from '../../common/index.js';
import { JobHandlerImpl } from './job-context.js';
import { JobHandler } from './job-handler.decorator.js';

const NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * Finds every `@JobHandler` provider of the application at module init (before the first claim), and
 * refuses to boot on a duplicate name, an invalid name, or a class without `execute()`.
 */
@Injectable()
export class HandlerRegistry implements OnModuleInit {
  private readonly logger = new Logger(HandlerRegistry.name);
  private readonly handlers = new Map<string, JobHandlerImpl>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: JobHandler.KEY })) {
      const name = this.discovery.getMetadataByDecorator(JobHandler, wrapper);
      const instance = wrapper.instance as JobHandlerImpl | undefined;
      if (!name || !instance) continue;
      if (!NAME.test(name)) throw new SchedulerError(ErrorCode.CONFIG, `@JobHandler('${name}') on ${wrapper.name}: a name is 1-128 of [A-Za-z0-9_.:-]`);
      if (typeof instance.execute !== 'function') throw new SchedulerError(ErrorCode.CONFIG, `@JobHandler('${name}') on ${wrapper.name}: the class has no execute(ctx) method`);
      if (this.handlers.has(name)) throw new SchedulerError(ErrorCode.CONFIG, `two providers are @JobHandler('${name}'); handler names must be unique`);
      this.handlers.set(name, instance);
    }
    this.logger.log(`handlers: ${this.names().join(', ') || '(none)'}`);
  }

  /** Sorted handler names (what the node advertises). */
  names(): string[] {
    return [...this.handlers.keys()].sort();
  }

  get(name: string): JobHandlerImpl | undefined {
    return this.handlers.get(name);
  }
}
