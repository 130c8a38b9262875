import { ConfigError, startExecutor } from './index.js';

describe(startExecutor.name, () => {
  it('should refuse to start without the cluster shape, naming the settings, before building anything', async () => {
    const env = { DATA_DIR: '/nonexistent/never-created' }; // standalone: no DB_URL, no REDIS_URL
    const started = startExecutor({ imports: [], env });
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(/ROLES|DB_URL|REDIS_URL/);
  });

  it('should refuse a bad setting by name', async () => {
    const env = { DB_URL: 'mysql://h/db', REDIS_URL: 'redis://h', TICKWHEEL_SECRET_KEY: 'a'.repeat(64), PORT: 'x' };
    await expect(startExecutor({ imports: [], env })).rejects.toThrow(/PORT/);
  });
});
