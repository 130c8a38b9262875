import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SIGNATURE_HEADERS as H } from '../../src/common/signing.js';
import { ApiClientService } from '../../src/modules/openapi/index.js';
import { UNKNOWN_MAX } from '../../src/modules/openapi/auth/api-client.service.js';
import { standaloneEnv, startNode, TestNode } from '../utils/test-node.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, bytes. */
function settledHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A 64-character app id of [A-Za-z0-9] nobody registered. */
const strangerId = () => randomBytes(48).toString('base64').replace(/[+/=]/g, 'x').slice(0, 64);

/**
 * Unauthenticated requests from ever new, long app ids do not grow the process: the cache of unknown ids is
 * bounded (UNKNOWN_MAX, least recently used out first) and expires after 30 s.
 */
describe('unknown app ids (standalone)', () => {
  let node: TestNode;
  beforeAll(async () => (node = await startNode(standaloneEnv())));
  afterAll(async () => node?.close());

  /** `n` well-formed signed-looking requests, each from a different unknown app, 50 at a time; every answer must be 401. */
  async function strangers(n: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < n) {
        next++;
        const headers = {
          [H.appId]: strangerId(),
          [H.timestamp]: String(Date.now()),
          [H.nonce]: randomBytes(16).toString('hex'),
          [H.signature]: `v2=${'0'.repeat(64)}`,
        };
        const res = await fetchRetried(`${node.url}/api/nodes`, headers);
        await res.arrayBuffer();
        if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
  }

  /** fetch, tried up to 5 times on a network error (a reset socket), 100 ms apart; the 5th error is thrown. */
  async function fetchRetried(url: string, headers: Record<string, string>): Promise<Response> {
    for (let i = 1; ; i++) {
      try {
        return await fetch(url, { headers });
      } catch (err) {
        if (i >= 5) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  it('should keep at most UNKNOWN_MAX unknown ids after 4,000 requests from distinct 64-character ones, and the heap flat', async () => {
    const clients = node.app.get(ApiClientService);
    await strangers(2 * UNKNOWN_MAX); // fills the cache and warms every lazy structure of the request path
    const before = settledHeap();
    await strangers(4_000);
    const grown = settledHeap() - before;
    expect(clients.cacheSize()).toEqual({ known: 0, unknown: UNKNOWN_MAX });
    // The bound is what the size shows (all remembered would add ~0.5 MB, within this heap's noise); the heap catches
    // anything kept per request (an unbounded cache keeping ~40 KB per unknown id would add ~150 MB here).
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    // The bound is the point, not the speed: ~25 s alone, several times that beside the heavy suites on 2 cores.
  }, 120_000);
});
