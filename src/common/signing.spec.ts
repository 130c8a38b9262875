import { createHash, createHmac } from 'node:crypto';
import {
  bodySha256Hex,
  canonicalRequest,
  parseSignature,
  signatureHex,
  signaturesEqual,
  signRequest,
} from './signing.js';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('request signing v2 (docs/api.md, README "Signing")', () => {
  const req = {
    appId: 'atk-a',
    method: 'post',
    pathAndQuery: '/api/tasks?x=1',
    timestampMs: '1700000000000',
    nonce: 'n0nce123',
    body: '{"a":1}',
  };

  it('should build TW2\\nAPP\\nMETHOD\\nPATH?QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA-256(body))', () => {
    expect(
      canonicalRequest('atk-a', 'post', '/api/tasks?x=1', '1700000000000', 'n0nce123', bodySha256Hex(req.body)),
    ).toBe(
      'TW2\natk-a\nPOST\n/api/tasks?x=1\n1700000000000\nn0nce123\n' +
        createHash('sha256').update(req.body).digest('hex'),
    );
  });

  it('should hash an empty body as SHA-256 of the empty string', () => {
    expect(bodySha256Hex('')).toBe(EMPTY_SHA256);
    expect(bodySha256Hex(Buffer.alloc(0))).toBe(EMPTY_SHA256);
  });

  it('should sign as v2=<hex HMAC-SHA256 of the canonical request>', () => {
    const expected = createHmac('sha256', 's3cret')
      .update(
        canonicalRequest(req.appId, req.method, req.pathAndQuery, req.timestampMs, req.nonce, bodySha256Hex(req.body)),
      )
      .digest('hex');
    expect(signRequest('s3cret', req)).toBe(`v2=${expected}`);
    expect(signatureHex('s3cret', req, bodySha256Hex(req.body))).toBe(expected);
  });

  it('should give every spelling of the app id its own signature', () => {
    const spellings = ['atk-a', 'ATK-A', 'Atk-a', 'àtk-a', 'atk-a ', 'atk-A'];
    expect(new Set(spellings.map((appId) => signRequest('k', { ...req, appId }))).size).toBe(spellings.length);
  });

  it('should read v2, bare v1 and anything else from X-Signature', () => {
    const hex = 'ab'.repeat(32);
    expect(parseSignature(`v2=${hex}`)).toEqual({ version: 'v2', hex });
    expect(parseSignature(`v2=${hex.toUpperCase()}`)).toEqual({ version: 'v2', hex });
    expect(parseSignature(hex)).toEqual({ version: 'v1' });
    for (const bad of [`v3=${hex}`, `v2=${hex.slice(1)}`, `v2 =${hex}`, `V2=${hex}`, '', 'zz'])
      expect(parseSignature(bad)).toEqual({ version: 'unknown' });
  });

  it('should compare signatures in constant time and refuse malformed ones', () => {
    const sig = signatureHex('k', req, EMPTY_SHA256);
    expect(signaturesEqual(sig, sig)).toBe(true);
    expect(signaturesEqual(sig, sig.toUpperCase())).toBe(true);
    expect(signaturesEqual(sig, sig.slice(0, 63) + (sig[63] === '0' ? '1' : '0'))).toBe(false);
    expect(signaturesEqual(sig, 'zz')).toBe(false);
    expect(signaturesEqual(sig, '')).toBe(false);
  });
});
