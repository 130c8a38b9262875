import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RedisClient } from '../../../infra/redis/index.js';

/** Directory of the Lua scripts (copied beside the JS by the assets rule of nest-cli.json). */
const LUA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'lua');

/** `verbNoun-<numKeys>.lua`. */
const FILE_NAME = /^([a-z][A-Za-z]*)-(\d+)\.lua$/;

/** Names of the coordination scripts; each is `lua/<name>-<numKeys>.lua`. */
export const SCRIPT_NAMES = [
  'acquireLock',
  'renewLock',
  'releaseLock',
  'takeDue',
  'drainNode',
  'heartbeat',
  'removeNode',
  'listNodes',
  'acquireSlots',
  'seedSlots',
  'claimMany',
  'takeTokens',
  'admitRequest',
  'pushReady',
  'readQueues',
] as const;

/** Name of one coordination script. */
export type ScriptName = (typeof SCRIPT_NAMES)[number];

/** One script as read from disk. */
export interface LoadedScript {
  name: string;
  numberOfKeys: number;
  /** `name:version`, the ioredis command name; the version is a content hash, so an edit never reuses a name. */
  commandName: string;
  lua: string;
}

type ScriptCommand = (...keysAndArgs: (string | number)[]) => Promise<unknown>;

/** Loads `redis/lua/*.lua` once and defines them on ioredis clients (EVALSHA, EVAL after a script flush). */
export class ScriptLoader {
  private readonly scripts = new Map<string, LoadedScript>();

  /** Reads every script of `dir`. @throws Error when one of `required` has no file (a packaging mistake). */
  constructor(
    private readonly dir: string = LUA_DIR,
    required: readonly string[] = SCRIPT_NAMES,
  ) {
    for (const file of readdirSync(dir).sort()) {
      const match = FILE_NAME.exec(file);
      if (!match) continue;
      const lua = readFileSync(join(dir, file), 'utf8');
      const version = createHash('sha1').update(lua).digest('hex').slice(0, 8);
      const name = match[1];
      this.scripts.set(name, { name, numberOfKeys: Number(match[2]), commandName: `${name}:${version}`, lua });
    }
    const missing = required.filter((name) => !this.scripts.has(name));
    if (missing.length > 0) throw new Error(`Lua scripts missing in ${dir}: ${missing.join(', ')}`);
  }

  /** Every script that was loaded, by name. */
  list(): LoadedScript[] {
    return [...this.scripts.values()];
  }

  /** Defines every script as a command on `client`; a no-op for scripts the client already has. */
  register(client: RedisClient): void {
    for (const script of this.scripts.values()) {
      if (typeof (client as unknown as Record<string, unknown>)[script.commandName] === 'function') continue;
      client.defineCommand(script.commandName, { numberOfKeys: script.numberOfKeys, lua: script.lua });
    }
  }

  /** Runs script `name` on a registered `client`. @throws Error when it is unknown or `keys` has the wrong length. */
  run(client: RedisClient, name: ScriptName, keys: string[], args: (string | number)[]): Promise<unknown> {
    const script = this.scripts.get(name);
    if (!script) throw new Error(`Lua script '${name}' not found in ${this.dir}`);
    if (keys.length !== script.numberOfKeys) {
      throw new Error(`Lua script '${name}' takes ${script.numberOfKeys} keys, got ${keys.length}`);
    }
    const command = (client as unknown as Record<string, ScriptCommand>)[script.commandName];
    if (typeof command !== 'function') {
      throw new Error(`Lua script '${script.commandName}' is not registered on this client`);
    }
    return command.call(client, ...keys, ...args);
  }
}
