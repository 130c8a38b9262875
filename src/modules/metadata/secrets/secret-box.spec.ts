import { SecretBox } from './secret-box.js';

describe(SecretBox.name, () => {
  const sut = new SecretBox('11'.repeat(32));

  it('should open what it sealed, with a fresh IV each time', () => {
    const a = sut.seal('top secret');
    const b = sut.seal('top secret');
    expect(a).not.toBe(b);
    expect(sut.open(a)).toBe('top secret');
  });

  it('should refuse a value sealed with another key or tampered with', () => {
    const sealed = sut.seal('x');
    expect(() => new SecretBox('22'.repeat(32)).open(sealed)).toThrow();
    const parts = sealed.split(':');
    const ciphertext = Buffer.from(parts[3], 'base64');
    ciphertext[0] ^= 1; // flip a bit (replacing it with 'y' was no change once in 256: the ciphertext byte was 'y')
    parts[3] = ciphertext.toString('base64');
    expect(() => sut.open(parts.join(':'))).toThrow();
    expect(() => sut.open('garbage')).toThrow(/not a sealed secret/);
  });

  it('should refuse a key that is not 32 bytes', () => {
    expect(() => new SecretBox('abcd')).toThrow(/32 bytes/);
  });
});
