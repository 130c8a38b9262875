import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ErrorCode, SchedulerError } from '../../common/index.js';
import { MetricsService } from '../observability/index.js';
import { BUILTIN_HANDLERS } from './builtin/builtin-params.js';
import { HttpJobHandler } from './builtin/http.handler.js';
import { NoopJobHandler } from './builtin/noop.handler.js';
import { ShellJobHandler } from './builtin/shell.handler.js';
import { JobHandler, JobHandlerImpl } from '../handler/index.js';

const NAME = /^[A-Za-z0-9_.:-]{1,128}$/;
const BUILTIN_CLASSES: ReadonlySet<unknown> = new Set([HttpJobHandler, NoopJobHandler, ShellJobHandler]);

/**
 * Finds every `@JobHandler` provider of the application at module init (before the first claim), and
 * refuses to boot on a duplicate name, an invalid name, a class without `execute()`, or a name of a built-in
 * handler (`noop`, `http`, `shell`: reserved, see BUILTIN_HANDLERS) on a class that is not that built-in.
 * Each handler's execution duration series start at 0 for every outcome.
 */
@Injectable()
export class HandlerRegistry implements OnModuleInit {
  private readonly logger = new Logger(HandlerRegistry.name);
  private readonly handlers = new Map<string, JobHandlerImpl>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: JobHandler.KEY })) {
      const name = this.discovery.getMetadataByDecorator(JobHandler, wrapper);
      const instance = wrapper.instance as JobHandlerImpl | undefined;
      if (!name || !instance) continue;
      const refuse = (why: string) =>
        new SchedulerError(ErrorCode.CONFIG, `@JobHandler('${name}') on ${wrapper.name}: ${why}`);
      if (!NAME.test(name)) throw refuse('a name is 1-128 of [A-Za-z0-9_.:-]');
      if (typeof instance.execute !== 'function') throw refuse('the class has no execute(ctx) method');
      if (BUILTIN_HANDLERS.has(name) && !BUILTIN_CLASSES.has(instance.constructor)) {
        const reserved = [...BUILTIN_HANDLERS].join(', ');
        throw refuse(`'${name}' is the name of a built-in handler (reserved: ${reserved}); choose another`);
      }
      if (this.handlers.has(name)) {
        const why = `two providers are @JobHandler('${name}'); handler names must be unique`;
        throw new SchedulerError(ErrorCode.CONFIG, why);
      }
      this.handlers.set(name, instance);
    }
    this.logger.log(`handlers: ${this.names().join(', ') || '(none)'}`);
    this.metrics.zeroExecutions(this.names()); // a quiet handler's first failures show in rate()
  }

  /** Sorted handler names (what the node advertises). */
  names(): string[] {
    return [...this.handlers.keys()].sort();
  }

  get(name: string): JobHandlerImpl | undefined {
    return this.handlers.get(name);
  }
}
