import { isSecretKey, REDACTED, redactSecrets } from './redact.js';

describe('redactSecrets (audit rows, README "Audit")', () => {
  it('should redact a bearer token in params.headers and keep the other headers', () => {
    const params = { url: 'https://api.example/x', headers: { Authorization: 'Bearer abc', 'X-Trace': 't-1' } };
    expect(redactSecrets(params)).toEqual({
      url: 'https://api.example/x',
      headers: { Authorization: REDACTED, 'X-Trace': 't-1' },
    });
    expect(params.headers.Authorization).toBe('Bearer abc'); // the input is untouched
  });

  it('should redact secret-looking keys at any depth, in arrays too, whatever the case', () => {
    const params = {
      env: { DB_PASSWORD: 'p', API_TOKEN: 't', HOME: '/root' },
      list: [{ client_secret: 's', id: 1 }],
      a: { b: { c: { cookie: 'k', apiKey: 'q' } } },
    };
    expect(redactSecrets(params)).toEqual({
      env: { DB_PASSWORD: REDACTED, API_TOKEN: REDACTED, HOME: '/root' },
      list: [{ client_secret: REDACTED, id: 1 }],
      a: { b: { c: { cookie: REDACTED, apiKey: REDACTED } } },
    });
  });

  it('should redact a whole object under a secret key, and leave null and scalars alone', () => {
    expect(redactSecrets({ credentials: 1, token: { a: 1 }, secret: null })).toEqual({
      credentials: 1,
      token: REDACTED,
      secret: null,
    });
    expect(redactSecrets('Bearer x')).toBe('Bearer x');
    expect(redactSecrets(null)).toBeNull();
  });

  it.each([
    'authorization',
    'Proxy-Authorization',
    'Cookie',
    'x-api-key',
    'api_key',
    'APIKEY',
    'accessToken',
    'refresh_token',
    'password',
    'mysecret',
  ])('should treat %s as secret', (k) => {
    expect(isSecretKey(k)).toBe(true);
  });

  it.each(['url', 'method', 'headers', 'body', 'argv', 'env', 'cwd', 'timeoutMs'])(
    'should not treat %s as secret',
    (k) => {
      expect(isSecretKey(k)).toBe(false);
    },
  );
});
