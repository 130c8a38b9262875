import { randomBytes } from 'node:crypto';
import { SIGNATURE_HEADERS as H } from '../../../src/common/signing.js';
import { UNKNOWN_MAX } from '../../../src/modules/openapi/auth/api-client.service.js';
import { ApiClientService } from '../../../src/modules/openapi/index.js';
import { waitFor } from '../../utils/test-node.js';
import { type App, type Hostile, refused, unauthorized } from '../harness.js';
import { signatureHeaders, v1SignatureHeaders } from '../../utils/signing.js';

/** What one signed request is made of; any part may be replaced to forge one. */
interface Forgery {
  appId?: string;
  secret?: string;
  ts?: string;
  nonce?: string;
}

/** The four signature headers of `method path body` signed v2 as `app`, with `f` overriding any part. */
export function signAs(
  app: App,
  method: string,
  path: string,
  body: string | Buffer = '',
  f: Forgery = {},
): Record<string, string> {
  const signer = { appId: f.appId ?? app.appId, secret: f.secret ?? app.secret, timestampMs: f.ts, nonce: f.nonce };
  return signatureHeaders(signer, method, path, body);
}

const json = { 'content-type': 'application/json' };

/**
 * Signature headers: missing, garbled, duplicated, v1, skewed or malformed timestamps, replayed nonces (also under
 * another spelling of the app id), path tricks, and the bounded cache of unknown app ids. Every case: a 401 (or a
 * 404 for a target no route has), nothing written, /health/ready still 200.
 */
export function signingCases(h: Hostile): void {
  // Delayed: a task let through by mistake stays PENDING, a row the snapshot shows.
  const submit = (tag: string) =>
    JSON.stringify({ requestId: `${h.prefix}-${tag}`, handler: 'noop', delayMs: 3_600_000 });
  const post = (headers: Record<string, string | string[]>, body: string, path = '/api/tasks') =>
    h.raw('POST', path, { ...json, ...headers }, body);

  describe('signature headers', () => {
    it('[usual] a request without any signature header, or without one of the four, is a 401', () =>
      h.unchanged(async () => {
        unauthorized(await post({}, submit('none')));
        for (const name of Object.values(H)) {
          const headers = signAs(h.a, 'POST', '/api/tasks', submit(`no-${name}`));
          delete headers[name];
          unauthorized(await post(headers, submit(`no-${name}`)));
        }
      }));

    it.each([
      ['X-Signature not hex', { [H.signature]: `v2=${'z'.repeat(64)}` }],
      [
        'X-Signature one hex digit short',
        (s: Record<string, string>) => ({ [H.signature]: s[H.signature].slice(0, -1) }),
      ],
      [
        'X-Signature of an unknown version',
        (s: Record<string, string>) => ({ [H.signature]: s[H.signature].replace(/^v2=/, 'v3=') }),
      ],
      [
        'X-Signature with a space after v2=',
        (s: Record<string, string>) => ({ [H.signature]: s[H.signature].replace(/^v2=/, 'v2= ') }),
      ],
      ['X-Nonce too short', { [H.nonce]: 'short' }],
      ['X-Nonce with a space', { [H.nonce]: 'has space in it' }],
      ['X-Nonce of 129 characters', { [H.nonce]: 'n'.repeat(129) }],
      [
        'X-App-Id with a character outside [A-Za-z0-9_.-]',
        (s: Record<string, string>) => ({ [H.appId]: `${s[H.appId]}!` }),
      ],
      ['X-App-Id of 65 characters', { [H.appId]: 'a'.repeat(65) }],
    ] as Array<[string, Record<string, string> | ((s: Record<string, string>) => Record<string, string>)]>)(
      '[usual] a garbled header is a 401: %s',
      (what, change) =>
        h.unchanged(async () => {
          const body = submit('garbled');
          const headers = signAs(h.a, 'POST', '/api/tasks', body);
          unauthorized(await post({ ...headers, ...(typeof change === 'function' ? change(headers) : change) }, body));
        }),
    );

    it.each(Object.values(H))('[usual] a duplicated %s header (two values, one of them right) is a 401', (name) =>
      h.unchanged(async () => {
        const body = submit(`dup-${name}`);
        const headers = signAs(h.a, 'POST', '/api/tasks', body);
        unauthorized(await post({ ...headers, [name]: [headers[name], headers[name]] }, body));
      }),
    );

    it('[signing] a v1 signature (the app id not signed) is a 401', () =>
      h.unchanged(async () => {
        const body = submit('v1');
        unauthorized(await post(v1SignatureHeaders(h.a, 'POST', '/api/tasks', body), body));
      }));

    it("[usual] a signature made with another app's secret, or for another app id, is a 401", () =>
      h.unchanged(async () => {
        const body = submit('other-secret');
        unauthorized(await post(signAs(h.a, 'POST', '/api/tasks', body, { secret: h.b.secret }), body));
        unauthorized(await post(signAs(h.a, 'POST', '/api/tasks', body, { appId: h.b.appId }), body));
      }));
  });

  describe('timestamps', () => {
    it.each([
      ['301 s in the past', () => String(Date.now() - 301_000)],
      ['10 minutes ahead', () => String(Date.now() + 600_000)],
      ['in seconds, not ms', () => String(Math.floor(Date.now() / 1000))],
      ['not a number', () => 'abc'],
      ['in exponent form', () => '1.7e12'],
      ['negative', () => `-${Date.now()}`],
      ['with a leading space', () => ` ${Date.now()}`],
      ['16 nines', () => '9'.repeat(16)],
      ['17 digits', () => `1${'0'.repeat(16)}`],
      ['zero', () => '0'],
    ])('[usual] a signed request whose timestamp is %s is a 401', (_what, ts) =>
      h.unchanged(async () => {
        const body = submit('skew');
        unauthorized(await post(signAs(h.a, 'POST', '/api/tasks', body, { ts: ts() }), body));
      }),
    );
  });

  describe('replayed nonces', () => {
    it('[signing] a captured submit runs once: replayed as is, or under another spelling of the app id, it is a 401', async () => {
      const body = submit('captured');
      const captured = signAs(h.a, 'POST', '/api/tasks', body);
      expect((await post(captured, body)).status).toBe(202);
      const id = h.a.appId;
      const spellings = [
        id,
        id.toUpperCase(),
        id[0].toUpperCase() + id.slice(1),
        `à${id.slice(1)}`,
        `${id} `,
        ` ${id}`,
        `${id}\t`,
        `${id.slice(0, -1)}${id.slice(-1).toUpperCase()}`,
        `\u0430${id.slice(1)}` /* Cyrillic a */,
        `${id}\u200b` /* zero width */,
        id.normalize('NFD'),
      ];
      await h.unchanged(async () => {
        for (const spelling of spellings)
          unauthorized(await post({ ...captured, [H.appId]: encodeHeader(spelling) }, body));
      });
    });

    it('[signing] a captured trigger runs the job once: replayed under another spelling, nothing more runs', async () => {
      const path = `/api/jobs/${h.jobA.id}/trigger`;
      const captured = signAs(h.a, 'POST', path, '{}');
      const first = await post(captured, '{}', path);
      expect(first.status).toBe(202);
      const ran = `${path.replace('/trigger', '/instances')}/${(first.body as { instanceId: string }).instanceId}`;
      await waitFor(
        'the captured run to end',
        async () => (await h.a.request<{ status: string }>('GET', ran)).body.status === 'SUCCESS',
      );
      await h.unchanged(async () => {
        for (const spelling of [h.a.appId, h.a.appId.toUpperCase(), `À${h.a.appId.slice(1)}`])
          unauthorized(await post({ ...captured, [H.appId]: encodeHeader(spelling) }, '{}', path));
      });
    });

    it('[usual] a nonce spent by one request cannot sign another (other path, other body)', async () => {
      const nonce = randomBytes(16).toString('hex');
      expect((await h.raw('GET', '/api/jobs', signAs(h.a, 'GET', '/api/jobs', '', { nonce }))).status).toBe(200);
      await h.unchanged(async () => {
        const body = submit('nonce-reuse');
        unauthorized(await post(signAs(h.a, 'POST', '/api/tasks', body, { nonce }), body));
      });
    });
  });

  describe('path tricks', () => {
    const tricks = [
      '/API/tasks',
      '/api//tasks',
      '/api/./tasks',
      '/api/%74asks',
      '/api/tasks/',
      '/api/x/../tasks',
      '/api/tasks/..',
      '/api/tasks;x',
      '//api/tasks',
      '/api/tasks?x=1',
      '/api/tasks#frag',
    ];
    it.each(tricks)('[usual] POST %s signed for /api/tasks is refused, and unsigned too', (path) =>
      h.unchanged(async () => {
        const body = submit('trick');
        for (const headers of [signAs(h.a, 'POST', '/api/tasks', body), {}]) {
          const res = await post(headers, body, path);
          expect([401, 404]).toContain(res.status);
          refused(res, res.status, res.status === 401 ? 'UNAUTHORIZED' : 'NOT_FOUND');
        }
      }),
    );

    it('[usual] an absolute-form target (POST http://host/api/tasks) signed for /api/tasks is a 401', () =>
      h.unchanged(async () => {
        const body = submit('absolute');
        const { host } = new URL(h.node.url);
        unauthorized(await post(signAs(h.a, 'POST', '/api/tasks', body), body, `http://${host}/api/tasks`));
        unauthorized(await post({}, body, `http://${host}/api/tasks`));
      }));

    it('[usual] a query string changed after signing is a 401', () =>
      h.unchanged(async () => {
        const headers = signAs(h.a, 'GET', `/api/jobs/${h.jobA.id}/instances?limit=1`);
        for (const path of [
          `/api/jobs/${h.jobA.id}/instances?limit=2`,
          `/api/jobs/${h.jobA.id}/instances?limit=1&offset=0`,
          `/api/jobs/${h.jobA.id}/instances`,
        ]) {
          unauthorized(await h.raw('GET', path, headers));
        }
      }));
  });

  it(`[signing] ${UNKNOWN_MAX + 50} requests from distinct unknown app ids are 401s, and at most ${UNKNOWN_MAX} of them are remembered`, () =>
    h.unchanged(async () => {
      const ids = Array.from({ length: UNKNOWN_MAX + 50 }, (_, i) =>
        `${h.prefix}-nobody-${i}-${randomBytes(16).toString('hex')}`.slice(0, 64),
      );
      for (let i = 0; i < ids.length; i += 50) {
        const answers = await Promise.all(
          ids
            .slice(i, i + 50)
            .map((appId) => h.raw('GET', '/api/jobs', signAs(h.a, 'GET', '/api/jobs', '', { appId }))),
        );
        for (const res of answers) expect(res.status).toBe(401);
      }
      expect(h.node.app.get(ApiClientService).cacheSize().unknown).toBeLessThanOrEqual(UNKNOWN_MAX);
    }));
}

/** `text` as a header value Node will send: characters outside Latin-1 as their UTF-8 bytes read as Latin-1. */
function encodeHeader(text: string): string {
  // eslint-disable-next-line no-control-regex -- the Latin-1 range, control characters included, on purpose
  return /^[\x00-\xff]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}
