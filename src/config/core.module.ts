import { DynamicModule, Global, Module } from '@nestjs/common';
import { CLOCK, Clock, SystemClock } from '../common/index.js';
import { APP_CONFIG, AppConfig } from './app-config.js';

/**
 * Global providers every module may inject: the validated {@link AppConfig} and the {@link Clock}.
 * Tests pass their own config (unique namespace, short intervals) and, where time matters, a clock.
 */
@Global()
@Module({})
export class CoreModule {
  static forConfig(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
      ],
      exports: [APP_CONFIG, CLOCK],
    };
  }
}
