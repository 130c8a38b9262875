import { CLUSTER } from '../../test/utils/load-config.js';
import { SECRET_SETTINGS, scrubSecretsFromEnv } from './secrets.js';

describe('loadConfig', () => {
  describe('scrubSecretsFromEnv', () => {
    it('should delete the secret settings from the given environment and nothing else', () => {
      const env: Record<string, string | undefined> = {
        ...CLUSTER,
        TICKWHEEL_SECRET: 's',
        SMTP_URL: 'smtp://mailer:pw@smtp.example.com',
        METRICS_TOKEN: 'scrape-token-0123456789',
        REDIS_PASSWORD: 'pw',
        REDIS_SENTINEL_PASSWORD: 'spw',
        PATH: '/usr/bin',
        TICKWHEEL_NAMESPACE: 'n',
      };
      expect(scrubSecretsFromEnv(env).sort()).toEqual([...SECRET_SETTINGS].sort());
      expect(env).toEqual({ PATH: '/usr/bin', TICKWHEEL_NAMESPACE: 'n' });
      expect(scrubSecretsFromEnv(env)).toEqual([]);
    });
  });
});
