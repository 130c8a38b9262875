import { durationMs, formatBody, includeBlock, notifyRequest, parseTwArgs, previewRequest } from './tw-args.js';

describe('tw arguments', () => {
  it('reads METHOD /path [body] with --include and --json anywhere', () => {
    expect(parseTwArgs(['get', '/api/jobs'])).toEqual({
      kind: 'request',
      method: 'GET',
      path: '/api/jobs',
      body: undefined,
      include: false,
      json: false,
      headers: {},
    });
    expect(parseTwArgs(['--json', 'POST', '/api/tasks', '{"handler":"noop"}', '--include'])).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/api/tasks',
      body: '{"handler":"noop"}',
      include: true,
      json: true,
      headers: {},
    });
  });

  it('adds -H / --header request headers, refusing a malformed one and the signing headers', () => {
    expect(parseTwArgs(['-H', 'Idempotency-Key: k-1', 'POST', '/api/jobs/j/pause', '--header', 'X-Trace:a b'])).toEqual(
      {
        kind: 'request',
        method: 'POST',
        path: '/api/jobs/j/pause',
        body: undefined,
        include: false,
        json: false,
        headers: { 'Idempotency-Key': 'k-1', 'X-Trace': 'a b' },
      },
    );
    expect(parseTwArgs(['POST', '/api/jobs/j/pause', '-H'])).toMatchObject({ kind: 'usage-error' });
    expect(parseTwArgs(['-H', 'no colon', 'GET', '/x'])).toMatchObject({ kind: 'usage-error' });
    expect(parseTwArgs(['-H', 'Bad Name: v', 'GET', '/x'])).toMatchObject({ kind: 'usage-error' });
    expect(parseTwArgs(['-H', 'x-signature: v2=00', 'GET', '/x'])).toMatchObject({
      kind: 'usage-error',
      message: '-H x-signature: tw signs the request itself',
    });
  });

  it('answers --help anywhere, and a usage error for a missing path, a bad method, bad JSON or extra words', () => {
    expect(parseTwArgs(['GET', '/x', '--help'])).toEqual({ kind: 'help' });
    expect(parseTwArgs([])).toMatchObject({ kind: 'usage-error' });
    expect(parseTwArgs(['GET'])).toMatchObject({ kind: 'usage-error' });
    expect(parseTwArgs(['FETCH', '/api/jobs'])).toMatchObject({
      kind: 'usage-error',
      message: "unknown METHOD 'FETCH'",
    });
    expect(parseTwArgs(['GET', 'api/jobs'])).toMatchObject({ kind: 'usage-error' });
    // '//host/...' is another host to URL(): the signed request would go there
    expect(parseTwArgs(['GET', '//evil.example/api/jobs'])).toMatchObject({ kind: 'usage-error' });
    expect(parseTwArgs(['POST', '/api/tasks', '{nope'])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^body is not valid JSON/),
    });
    expect(parseTwArgs(['POST', '/api/tasks', '{}', 'extra'])).toMatchObject({ kind: 'usage-error' });
  });

  it('builds the preview request of contract B: only the fields given, count a number, type upper-cased', () => {
    expect(previewRequest(['0 9 * * 1-5'])).toEqual({
      method: 'POST',
      path: '/api/schedules/preview',
      body: JSON.stringify({ triggerExpr: '0 9 * * 1-5' }),
    });
    const all = previewRequest([
      '30 2 * * *',
      '--tz',
      'Europe/Berlin',
      '--from',
      '2026-03-28T00:00:00Z',
      '-n',
      '5',
      '--type',
      'cron',
    ]);
    expect(all).toMatchObject({ method: 'POST', path: '/api/schedules/preview' });
    expect(JSON.parse((all as { body: string }).body)).toEqual({
      triggerExpr: '30 2 * * *',
      timeZone: 'Europe/Berlin',
      from: '2026-03-28T00:00:00Z',
      count: 5,
      triggerType: 'CRON',
    });
    expect(parseTwArgs(['--json', 'preview', '60000', '--type', 'FIXED_RATE'])).toMatchObject({
      kind: 'request',
      method: 'POST',
      path: '/api/schedules/preview',
      json: true,
    });
  });

  it('refuses a preview without an expression, with a bad -n, type or option, or a flag without its value', () => {
    expect(previewRequest([])).toMatch(/needs the expression/);
    for (const n of ['0', '101', '2.5', 'ten']) expect(previewRequest(['* * * * *', '-n', n])).toMatch(/^-n takes/);
    expect(previewRequest(['* * * * *', '--type', 'HOURLY'])).toMatch(/^--type must be one of/);
    expect(previewRequest(['* * * * *', '--zone', 'UTC'])).toMatch(/unknown preview option/);
    expect(previewRequest(['* * * * *', '--tz'])).toBe('--tz needs a value');
    expect(previewRequest(['*', '*'])).toMatch(/unexpected argument/);
    expect(parseTwArgs(['preview'])).toMatchObject({ kind: 'usage-error' });
  });

  it('prints nothing for no body, text as it came, JSON pretty or on one line', () => {
    expect(formatBody(null, false)).toBe('');
    expect(formatBody('', true)).toBe('');
    expect(formatBody('plain', false)).toBe('plain\n');
    expect(formatBody({ a: [1] }, false)).toBe('{\n  "a": [\n    1\n  ]\n}\n');
    expect(formatBody({ a: [1] }, true)).toBe('{"a":[1]}\n');
  });

  it('writes the --include block: the status line, then the headers, then a blank line', () => {
    expect(includeBlock(202, 'Accepted', [['content-type', 'application/json']])).toBe(
      'HTTP 202 Accepted\ncontent-type: application/json\n\n',
    );
  });

  it('builds the notify request: PUT of the whole rule, kind upper-cased, durations in ms, channels collected', () => {
    const req = notifyRequest([
      'nightly-twice',
      'consecutive-failures',
      '--job',
      'nightly-export',
      '--count',
      '2',
      '--quiet',
      '30m',
      '--email',
      'team@example.com, ops@example.com',
      '--chat',
      'https://chat.example.com/hooks/x',
    ]);
    expect(req).toEqual({
      method: 'PUT',
      path: '/api/notifications/rules/nightly-twice',
      body: JSON.stringify({
        kind: 'CONSECUTIVE_FAILURES',
        jobCode: 'nightly-export',
        count: 2,
        quietMs: 1_800_000,
        channels: [
          { type: 'email', to: ['team@example.com', 'ops@example.com'] },
          { type: 'chat', url: 'https://chat.example.com/hooks/x' },
        ],
      }),
    });
    expect(parseTwArgs(['notify', 'r', 'deadline', '--finish-by', '06:00', '--tz', 'Europe/Paris'])).toMatchObject({
      kind: 'request',
      method: 'PUT',
      body: JSON.stringify({ kind: 'DEADLINE', finishBy: '06:00', timeZone: 'Europe/Paris' }),
    });
    expect(notifyRequest(['r'])).toMatch(/needs the rule name and its kind/);
    expect(notifyRequest(['r', 'deadline', '--within', 'soon'])).toMatch(/--within takes a duration/);
    expect(notifyRequest(['r', 'deadline', '--bogus', '1'])).toBe("unknown notify option '--bogus'");
    expect(notifyRequest(['r', 'recovery', '--job'])).toBe('--job needs a value');
    expect([
      durationMs('500ms'),
      durationMs('30s'),
      durationMs('2h'),
      durationMs('1d'),
      durationMs('7'),
      durationMs('x'),
    ]).toEqual([500, 30_000, 7_200_000, 86_400_000, 7, null]);
  });
});
