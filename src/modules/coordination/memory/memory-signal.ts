import type { SignalPort } from '../coordination.port.js';
import { listOf } from './maps.js';

/** {@link SignalPort} in memory: listeners run on a later microtask, as after a network hop. */
export class MemorySignal implements SignalPort {
  private readonly listeners = new Map<string, Array<(message: string) => void>>();

  async publish(name: string, message: string): Promise<void> {
    for (const listener of [...(this.listeners.get(name) ?? [])]) queueMicrotask(() => listener(message));
  }

  async subscribe(name: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    listOf(this.listeners, name).push(listener);
    return async () => {
      const list = this.listeners.get(name);
      const index = list ? list.indexOf(listener) : -1;
      if (index >= 0) list!.splice(index, 1);
      if (list?.length === 0) this.listeners.delete(name);
    };
  }

  /** Drops every subscription. */
  async close(): Promise<void> {
    this.listeners.clear();
  }
}
