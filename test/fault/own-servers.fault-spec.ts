import { execFileSync } from 'node:child_process';
import { startMariadb, startRedis } from '../utils/own-servers.js';

/** The fault tier's own servers start, answer and stop (test/utils/own-servers.ts). */
describe('own servers', () => {
  it('starts and stops a redis-server and a mariadbd of its own', async () => {
    const [redis, db] = await Promise.all([startRedis(), startMariadb()]);
    try {
      expect(
        execFileSync('redis-cli', ['-p', String(redis.port), 'ping'])
          .toString()
          .trim(),
      ).toBe('PONG');
      const out = execFileSync('mysql', ['-uroot', '-h127.0.0.1', `-P${db.port}`, '-N', '-e', 'SELECT 1']);
      expect(out.toString().trim()).toBe('1');
    } finally {
      await Promise.all([redis.stop(), db.stop()]);
    }
  }, 90_000);
});
