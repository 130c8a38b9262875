import type { Redis } from 'ioredis';

/** What went wrong (the `kind` label of `tickwheel_redis_errors_total`). */
export type RedisErrorKind = 'connection' | 'command';

/** Receives one count per error. */
export type RedisErrorSink = (kind: RedisErrorKind) => void;

type Command = Parameters<Redis['sendCommand']>[0];

/**
 * Not failures of Redis: NOSCRIPT makes ioredis send the script again with EVAL; "Connection is closed." answers
 * commands sent after this process closed the client itself (shutdown); ioredis ignores the answers to its own
 * CLIENT SETNAME / SETINFO on connect (Redis before 7.2 has no SETINFO).
 */
function isExpected(command: Command, err: unknown): boolean {
  const message = (err as Error)?.message ?? '';
  if (message.startsWith('NOSCRIPT') || message === 'Connection is closed.') return true;
  const sub = String(command.args[0] ?? '').toLowerCase();
  return command.name === 'client' && (sub === 'setinfo' || sub === 'setname');
}

/**
 * Counts a client's Redis errors, and those of every client later duplicated from it (blocking reads,
 * subscriber): each `error` event (refused, lost or timed-out connection; ioredis emits one per failed
 * reconnection) as `connection`, each command that ends in an error (an error reply, retries per request spent,
 * a command timeout) once as `command`. The callers still get every error.
 */
export function watchRedisErrors(client: Redis, sink: RedisErrorSink): void {
  client.on('error', () => sink('connection'));
  const counted = new WeakSet<Command>(); // ioredis sends a command again after a reconnect: count it once
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: Command, ...rest: unknown[]) => {
    if (!counted.has(command)) {
      counted.add(command);
      command.promise.catch((err: unknown) => {
        if (!isExpected(command, err)) sink('command');
      });
    }
    return (send as (c: Command, ...r: unknown[]) => unknown)(command, ...rest);
  }) as Redis['sendCommand'];
  const duplicate = client.duplicate.bind(client);
  client.duplicate = ((...args: Parameters<Redis['duplicate']>) => {
    const copy = duplicate(...args);
    watchRedisErrors(copy, sink);
    return copy;
  }) as Redis['duplicate'];
}
