import { WarnOnce } from './warn-once.js';

describe('WarnOnce', () => {
  it('should pass a message once a minute, each message on its own clock', () => {
    const out: string[] = [];
    const w = new WarnOnce((m) => out.push(m));
    w.warn('db down', 0);
    w.warn('db down', 59_999);
    w.warn('redis down', 10);
    w.warn('db down', 60_000);
    expect(out).toEqual(['db down', 'redis down', 'db down']);
  });
});
