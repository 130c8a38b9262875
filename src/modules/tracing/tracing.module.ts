import { Global, Module } from '@nestjs/common';
import { Tracing } from './tracing.js';

/** Provides {@link Tracing} to every module of the process (global, like the config). */
@Global()
@Module({ providers: [Tracing], exports: [Tracing] })
export class TracingModule {}
