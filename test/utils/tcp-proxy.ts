import { fork } from 'node:child_process';
import { join } from 'node:path';

/**
 * A TCP forwarder on 127.0.0.1 that sends every new connection to one backend port, as HAProxy, ProxySQL or
 * MaxScale in front of a database would: the app's address never changes while the backend behind it does. It runs
 * in a child process (test/utils/tcp-proxy-child.mjs), so the test's own blocking calls cannot stall it.
 */
export interface TcpProxy {
  readonly port: number;
  /**
   * Points new connections at `port` (null: a new connection is closed at once) and cuts every open one
   * (HAProxy's `on-marked-down shutdown-sessions`): a session must never go on talking to a demoted primary.
   * Resolves once the proxy applied it.
   */
  setTarget(port: number | null): Promise<void>;
  close(): Promise<void>;
}

/** Starts a {@link TcpProxy} on a free loopback port, forwarding to `target`. */
export async function startTcpProxy(target: number | null): Promise<TcpProxy> {
  const child = fork(join(process.cwd(), 'test/utils/tcp-proxy-child.mjs'), [String(target)], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: Record<string, T>) => {
        if (!(key in m)) return;
        child.off('message', onMessage);
        resolve(m[key]);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the TCP proxy exited (${code})`)));
    });
  const port = await next<number>('port');
  return {
    port,
    async setTarget(p) {
      const ack = next<number>('ack');
      child.send({ target: p });
      await ack;
    },
    async close() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
