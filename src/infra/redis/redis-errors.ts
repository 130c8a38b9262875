import type { Redis } from 'ioredis';
import type { RedisClient } from './redis-connection.js';

/** The `kind` label of `tickwheel_redis_errors_total`. */
export type RedisErrorKind = 'connection' | 'command';
export type RedisErrorSink = (kind: RedisErrorKind) => void;

type Command = Parameters<Redis['sendCommand']>[0];

/** Not failures: NOSCRIPT (ioredis retries with EVAL), a closed client's own shutdown, ioredis's CLIENT SETINFO. */
function isExpected(command: Command, err: unknown): boolean {
  const message = (err as Error)?.message ?? '';
  if (message.startsWith('NOSCRIPT') || message === 'Connection is closed.') return true;
  const sub = String(command.args[0] ?? '').toLowerCase();
  return command.name === 'client' && (sub === 'setinfo' || sub === 'setname');
}

/**
 * Counts the Redis errors of a client and of every client duplicated from it: each `error` event (one per failed
 * (re)connection) as `connection`, each command ending in an error (reply, retries spent, timeout) once as
 * `command`. The callers still get every error.
 */
export function watchRedisErrors(client: RedisClient, sink: RedisErrorSink): void {
  client.on('error', () => sink('connection'));
  const counted = new WeakSet<Command>(); // ioredis sends a command again after a reconnect: count it once
  const send = client.sendCommand.bind(client);
  (client as Redis).sendCommand = ((command: Command, ...rest: unknown[]) => {
    if (!counted.has(command)) {
      counted.add(command);
      command.promise.catch((err: unknown) => {
        if (!isExpected(command, err)) sink('command');
      });
    }
    return (send as (c: Command, ...r: unknown[]) => unknown)(command, ...rest);
  }) as Redis['sendCommand'];
  // A Cluster client's duplicate takes other arguments: passed through as they are.
  const duplicate = client.duplicate.bind(client) as (...args: unknown[]) => RedisClient;
  (client as Redis).duplicate = ((...args: unknown[]) => {
    const copy = duplicate(...args);
    watchRedisErrors(copy, sink);
    return copy;
  }) as Redis['duplicate'];
}
