import type { RedisClient } from '../../../infra/redis/index.js';
import type { RedisKeys } from './redis-keys.js';
import type { ScriptLoader, ScriptName } from './script-loader.js';

/** What every Redis part shares: the caller's client, the namespace's keys and the loaded Lua scripts. */
export interface RedisContext {
  redis: RedisClient;
  keys: RedisKeys;
  scripts: ScriptLoader;
}

/** Base of the per-concern Redis classes: the context and a way to run a script of `lua/`. */
export abstract class RedisPart {
  protected readonly redis: RedisClient;
  protected readonly keys: RedisKeys;
  private readonly scripts: ScriptLoader;

  constructor(context: RedisContext) {
    ({ redis: this.redis, keys: this.keys, scripts: this.scripts } = context);
  }

  protected run(name: ScriptName, keys: string[], args: (string | number)[]): Promise<unknown> {
    return this.scripts.run(this.redis, name, keys, args);
  }
}
