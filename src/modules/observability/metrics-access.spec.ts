import { scrapeAllowed } from './metrics-access.js';

describe('METRICS_TOKEN', () => {
  const token = 'scrape-token-0123456789';

  it('should let any scrape in without a token', () => {
    expect(scrapeAllowed(null, undefined)).toBe(true);
  });

  it('should let in only `Bearer <token>` (any case of the scheme), nothing shorter, longer or empty', () => {
    expect(scrapeAllowed(token, `Bearer ${token}`)).toBe(true);
    expect(scrapeAllowed(token, `bearer ${token}`)).toBe(true);
    expect(scrapeAllowed(token, [`Bearer ${token}`])).toBe(true);
    for (const bad of [undefined, '', 'Bearer', 'Bearer ', token, `Basic ${token}`, `Bearer ${token}x`, 'Bearer x'])
      expect({ bad, allowed: scrapeAllowed(token, bad) }).toEqual({ bad, allowed: false });
  });
});
