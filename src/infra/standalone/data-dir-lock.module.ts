import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';

const RELEASE = Symbol('DATA_DIR_LOCK_RELEASE');

/** Releases the standalone DATA_DIR lock as the very last step of shutdown (after the other shutdown hooks). */
@Injectable()
class DataDirLockRelease implements OnApplicationShutdown {
  constructor(@Inject(RELEASE) private readonly release: () => void) {}

  onApplicationShutdown(): void {
    this.release();
  }
}

/**
 * Ties a DATA_DIR lock (lockDataDir) to the app's life: Nest's shutdown hooks run on SIGTERM/SIGINT and
 * on app.close(), and then the process ends by the signal, without an 'exit' event to clean up in.
 */
@Module({})
export class DataDirLockModule {
  /** A module whose shutdown hook calls `release`. */
  static releasing(release: () => void): DynamicModule {
    return { module: DataDirLockModule, providers: [{ provide: RELEASE, useValue: release }, DataDirLockRelease] };
  }
}
