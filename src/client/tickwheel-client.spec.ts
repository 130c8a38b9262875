import { jest } from '@jest/globals';
import { SIGNATURE_HEADERS, signRequest } from '../common/index.js';
import { TickwheelClient } from './tickwheel-client.js';

const BASE = 'http://127.0.0.1:3000';

/** The URL fetch was given and whether its signature is the one the server computes for that URL. */
async function sent(path: string): Promise<{ url: string; valid: boolean }> {
  const spy = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 200 }));
  try {
    const client = new TickwheelClient({ baseUrl: BASE, appId: 'app-1', secret: 's3cret' });
    await client.request('GET', path);
    const [input, init] = spy.mock.calls[0] as [URL, { headers: Record<string, string> }];
    const url = new URL(input);
    const h = init.headers;
    const expected = signRequest('s3cret', {
      appId: 'app-1',
      method: 'GET',
      pathAndQuery: url.pathname + url.search, // what the server reads (req.originalUrl)
      timestampMs: h[SIGNATURE_HEADERS.timestamp],
      nonce: h[SIGNATURE_HEADERS.nonce],
      body: '',
    });
    return { url: url.href, valid: h[SIGNATURE_HEADERS.signature] === expected };
  } finally {
    spy.mockRestore();
  }
}

describe(TickwheelClient.name, () => {
  it('should sign the path and query as fetch sends them (spaces, non-ASCII and dot segments normalised)', async () => {
    for (const path of ['/api/audit?action=job created', '/api/jobs/caf\u00e9', '/api/jobs/../nodes', '/api/jobs']) {
      expect(await sent(path)).toMatchObject({ valid: true });
    }
  });

  it('should refuse a path that would leave the base URL (//host/...), sending nothing', async () => {
    await expect(sent('//evil.example/api/jobs')).rejects.toThrow(/path/);
  });
});
