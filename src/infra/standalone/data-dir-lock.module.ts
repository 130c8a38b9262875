import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';

const RELEASE = Symbol('DATA_DIR_LOCK_RELEASE');

@Injectable()
class DataDirLockRelease implements OnApplicationShutdown {
  constructor(@Inject(RELEASE) private readonly release: () => void) {}

  onApplicationShutdown(): void {
    this.release();
  }
}

/** Ties a DATA_DIR lock to the app's life: released by the last shutdown hook (a signal ends with no 'exit'). */
@Module({})
export class DataDirLockModule {
  /** A module whose shutdown hook calls `release`. */
  static releasing(release: () => void): DynamicModule {
    return { module: DataDirLockModule, providers: [{ provide: RELEASE, useValue: release }, DataDirLockRelease] };
  }
}
