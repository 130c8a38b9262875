import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { JobHandler, type JobHandlerImpl } from '../modules/handler/index.js';
import { BUILTIN_HANDLER_NAMES, TickwheelWorker } from './tickwheel-worker.js';
import type { WorkerOptions } from './worker-options.js';

/** The token of the module's {@link WorkerOptions}. */
export const WORKER_OPTIONS = Symbol('TICKWHEEL_WORKER_OPTIONS');

/**
 * Runs the app's `@JobHandler` providers as an app worker ({@link TickwheelWorker}): discovers them when the app
 * boots (the same decorator an executor reads), starts the worker (registers, then claims), and drains it before
 * the app shuts down (`app.enableShutdownHooks()` makes SIGTERM do that). The built-in handlers' names are left out
 * (an app that also imports the execution module keeps running those on its executor side).
 * @throws Error at boot when a setting is missing, no handler is found, or the api refuses the registration.
 */
@Injectable()
export class TickwheelWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TickwheelWorker');
  private worker: TickwheelWorker | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(WORKER_OPTIONS) private readonly options: WorkerOptions,
  ) {}

  /** The running worker (null before boot). */
  get current(): TickwheelWorker | null {
    return this.worker;
  }

  async onApplicationBootstrap(): Promise<void> {
    const handlers: Record<string, JobHandlerImpl> = {};
    for (const wrapper of this.discovery.getProviders({ metadataKey: JobHandler.KEY })) {
      const name = this.discovery.getMetadataByDecorator(JobHandler, wrapper);
      const instance = wrapper.instance as JobHandlerImpl | undefined;
      if (!name || !instance) continue;
      if (BUILTIN_HANDLER_NAMES.has(name)) continue;
      if (handlers[name]) throw new Error(`two providers are @JobHandler('${name}'); handler names must be unique`);
      handlers[name] = instance;
    }
    this.worker = new TickwheelWorker({
      loggerFor: (context) => new Logger(context),
      ...this.options,
      handlers,
    });
    this.logger.log(`handlers: ${Object.keys(handlers).sort().join(', ')}`);
    await this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }
}

/**
 * `TickwheelWorkerModule.forRoot({ ... })` in a user's app module makes the app an app worker (docs/workers.md
 * "The TypeScript SDK"); options left out come from TICKWHEEL_URL, TICKWHEEL_APP_ID, TICKWHEEL_SECRET,
 * WORKER_CONCURRENCY, WORKER_DRAIN_GRACE_MS, WORKER_CLAIM_WAIT_MS, WORKER_HOST.
 */
@Module({})
export class TickwheelWorkerModule {
  static forRoot(options: WorkerOptions = {}): DynamicModule {
    return {
      module: TickwheelWorkerModule,
      imports: [DiscoveryModule],
      providers: [{ provide: WORKER_OPTIONS, useValue: options }, TickwheelWorkerService],
      exports: [TickwheelWorkerService],
    };
  }
}
