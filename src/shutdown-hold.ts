import { Injectable, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';

/**
 * Holds the process from the first shutdown hook to the last: a hook waiting on the unref'd Clock (the executor's
 * drain) must not be cut short when nothing else holds the event loop (an app that never listened).
 */
@Injectable()
export class ShutdownHold implements OnModuleDestroy, OnApplicationShutdown {
  private hold: NodeJS.Timeout | null = null;

  onModuleDestroy(): void {
    this.hold ??= setInterval(() => undefined, 60_000);
  }

  onApplicationShutdown(): void {
    if (this.hold) clearInterval(this.hold);
    this.hold = null;
  }
}
