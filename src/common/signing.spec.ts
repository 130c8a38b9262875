import { createHash, createHmac } from 'node:crypto';
import { canonicalRequest, signaturesEqual, signRequest } from './signing.js';

describe('request signing (DESIGN §8)', () => {
  it('should build METHOD\\nPATH?QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA-256(body))', () => {
    const body = '{"a":1}';
    expect(canonicalRequest('post', '/api/tasks?x=1', '1700000000000', 'n0nce123', body)).toBe(
      `POST\n/api/tasks?x=1\n1700000000000\nn0nce123\n${createHash('sha256').update(body).digest('hex')}`,
    );
  });

  it('should hash an empty body as SHA-256 of the empty string', () => {
    expect(canonicalRequest('GET', '/api/nodes', '1', 'abcdefgh', '').endsWith('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')).toBe(true);
  });

  it('should sign with hex HMAC-SHA256 of the canonical request', () => {
    const expected = createHmac('sha256', 's3cret').update(canonicalRequest('GET', '/p', '1', 'abcdefgh', '')).digest('hex');
    expect(signRequest('s3cret', 'GET', '/p', '1', 'abcdefgh', '')).toBe(expected);
  });

  it('should compare signatures in constant time and refuse malformed ones', () => {
    const sig = signRequest('k', 'GET', '/p', '1', 'abcdefgh', '');
    expect(signaturesEqual(sig, sig)).toBe(true);
    expect(signaturesEqual(sig, sig.toUpperCase())).toBe(true);
    expect(signaturesEqual(sig, sig.slice(0, 63) + (sig[63] === '0' ? '1' : '0'))).toBe(false);
    expect(signaturesEqual(sig, 'zz')).toBe(false);
    expect(signaturesEqual(sig, '')).toBe(false);
  });
});
