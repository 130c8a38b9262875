import { runInNewContext } from 'node:vm';
import { swaggerUiOptions } from './swagger-ui.js';

type Req = { url: string; method: string; headers: Record<string, string>; body?: string };

/** The page's twSignRequest, run against a fake window at https://tw.example/docs with an app authorised. */
function signer(): (req: Req) => Promise<Req> {
  const typed = new Map([
    ['X-App-Id', new Map([['value', 'app-1']])],
    ['X-Signature', new Map([['value', 's3cret']])],
  ]);
  const window: Record<string, unknown> = {
    location: { href: 'https://tw.example/docs', origin: 'https://tw.example' },
    ui: { authSelectors: { authorized: () => typed } },
    crypto: globalThis.crypto,
  };
  window.window = window;
  runInNewContext(swaggerUiOptions().customJsStr as string, { ...window, window, TextEncoder, URL, console });
  return window.twSignRequest as (req: Req) => Promise<Req>;
}

describe('Swagger UI signing script', () => {
  it('should sign a same-origin /api request, and never another origin (its headers still stripped)', async () => {
    const sign = signer();
    const same = await sign({ url: '/api/jobs', method: 'GET', headers: { 'X-Signature': 's3cret' } });
    expect(same.headers['X-Signature']).toMatch(/^v2=[0-9a-f]{64}$/);
    const away = await sign({ url: 'https://evil.example/api/jobs', method: 'GET', headers: { 'x-signature': 's3cret' } });
    expect(away.headers).toEqual({});
  });
});
