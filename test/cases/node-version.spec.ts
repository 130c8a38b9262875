import { readFileSync } from 'node:fs';
import { nodeSupported, unsupportedMessage } from '../../scripts/node-version.mjs';

/** `npm start` and the CLIs refuse an unsupported Node with a line, not better-sqlite3's segfault (issue 27 item 4). */
describe('the supported Node.js versions', () => {
  it.each([
    ['v20.20.2', false],
    ['v22.14.0', false],
    ['v22.15.0', true],
    ['v22.23.5', true],
    ['v23.11.0', false],
    ['v24.10.0', false],
    ['v24.11.0', true],
    ['v25.1.0', true],
  ])('%s → %s', (version, ok) => {
    expect(nodeSupported(version)).toBe(ok);
  });

  it('should say the same as package.json engines, and this test runs on a supported Node', () => {
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('^22.15.0 || >=24.11.0');
    expect(nodeSupported(process.version)).toBe(true);
    expect(unsupportedMessage('v20.20.2')).toMatch(/22\.15\+ or 24\.11\+.*v20\.20\.2/);
  });
});
