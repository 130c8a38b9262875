import { ValidationError } from '../../common/index.js';
import { EgressPolicy } from '../egress/index.js';
import { CallbackUrlCheck, checkCallbackUrl } from './callback-url-check.service.js';

/** docs/callbacks.md "Where a callback goes": the rules a callback URL meets at submit and register, no DNS. */
describe('checkCallbackUrl', () => {
  const policy = EgressPolicy.fromSettings({ allow: '*', deny: 'blocked.example.com' });
  const refusal = (url: unknown, field = 'callbackUrl') => {
    try {
      checkCallbackUrl(policy, url, field);
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      return { field: (err as ValidationError).field, message: (err as Error).message };
    }
    return null;
  };

  it.each([
    ['http://127.0.0.1/x', /loopback/],
    ['http://127.8.9.1:9/x', /loopback/],
    ['http://localhost:8080/x', /localhost|loopback/],
    ['http://LOCALHOST./x', /localhost|loopback/],
    ['http://0.0.0.0/x', /unspecified/],
    ['http://169.254.169.254/latest', /metadata/],
    ['http://169.254.3.4/x', /link-local/],
    ['http://[::1]/x', /loopback/],
    ['http://[fe80::1]/x', /link-local/],
    ['http://blocked.example.com/x', /EGRESS_DENY/],
    ['ftp://hooks.example.com/x', /must be http: or https:, not ftp:/],
    ['javascript:alert(1)', /must be http: or https:/],
    ['https://user:pass@hooks.example.com/x', /user name or password/],
    ['https://user@hooks.example.com/x', /user name or password/],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, /at most 2048 characters/],
    ['hooks.example.com/x', /not an absolute URL/],
    ['', /not an absolute URL/],
    [42, /must be a string/],
    [`https://${'a.'.repeat(127)}example.com/x`, /host name over 253 characters/],
  ])('should refuse %s naming the field', (url, why) => {
    const got = refusal(url, 'tasks[3].callbackUrl');
    expect(got?.field).toBe('tasks[3].callbackUrl');
    expect(got?.message).toMatch(/^tasks\[3\]\.callbackUrl /);
    expect(got?.message).toMatch(why);
  });

  it.each(['https://hooks.example.com/x', 'http://hooks.example.com:8080/a?b=c', 'https://203.0.113.7/cb'])(
    'should allow %s',
    (url) => expect(refusal(url)).toBeNull(),
  );

  it("should allow what the operator's EGRESS_ALLOW re-opens (a local receiver), and only on its port", () => {
    const local = EgressPolicy.fromSettings({ allow: 'localhost:5555,127.0.0.1' });
    expect(() => checkCallbackUrl(local, 'http://localhost:5555/cb', 'callbackUrl')).not.toThrow();
    expect(() => checkCallbackUrl(local, 'http://127.0.0.1:6000/cb', 'callbackUrl')).not.toThrow();
    expect(() => checkCallbackUrl(local, 'http://localhost:5556/cb', 'callbackUrl')).toThrow(/egress policy/);
  });

  it("should narrow the policy to the app's egressAllow, once per call", async () => {
    const lookups: string[] = [];
    const check = new CallbackUrlCheck(policy, {
      lookup: async (appId) => {
        lookups.push(appId);
        return { maxUnfinishedTasks: null, egressAllow: ['hooks.example.com'] };
      },
    });
    await expect(check.assert('app-1', 'https://hooks.example.com/x')).resolves.toBeUndefined();
    await expect(check.assert('app-1', 'https://other.example.org/x', 'url')).rejects.toMatchObject({
      field: 'url',
      message: expect.stringMatching(/egressAllow/),
    });
    await check.assertAll('app-1', [
      { url: 'https://hooks.example.com/1', field: 'tasks[0].callbackUrl' },
      { url: 'https://hooks.example.com/2', field: 'tasks[1].callbackUrl' },
    ]);
    expect(lookups).toEqual(['app-1', 'app-1', 'app-1']);
  });
});
