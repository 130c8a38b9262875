import { SHAPES } from '../utils/tenancy.js';
import { bodyCases } from './cases/bodies.js';
import { callbackHostCases } from './cases/callback-hosts.js';
import { callbackCases } from './cases/callbacks.js';
import { limitCases } from './cases/limits.js';
import { lowApiCases } from './cases/lows-api.js';
import { numberCases } from './cases/numbers.js';
import { signingCases } from './cases/signing.js';
import { tenancyCases } from './cases/tenancy.js';
import { hostileHarness } from './harness.js';

/**
 * The hostile-input suite: the protections of SECURITY.md "What is in place" and the usual attacks, against one
 * node of each shape. Each case asserts the answer (status, problem+json code, and the field or scope it names),
 * that no row of the namespace changed (job definitions, instances, attempts, audit, the run's API clients) and
 * that /health/ready still answers 200. A case name starts with the protection it attacks, as SECURITY.md names
 * it (`[signing]`, `[tenancy]`, `[scopes]`, `[rate limits]`, `[caps]`, `[bounded inputs]`, `[egress]`,
 * `[shell]`), or with `[usual]` for the usual hostile input. The focused specs under test/e2e prove the details;
 * this suite sweeps the input space with one case per way in.
 */
describe.each(SHAPES)('hostile input (%s)', (shape, env) => {
  const h = hostileHarness(shape as 'standalone' | 'cluster', env);
  describe('signing', () => signingCases(h));
  describe('bodies', () => bodyCases(h));
  describe('numbers', () => numberCases(h));
  describe('tenancy', () => tenancyCases(h));
  describe('limits', () => limitCases(h));
  describe('callbacks', () => callbackCases(h));
  describe('callback hosts', () => callbackHostCases(h));
  describe('api lows', () => lowApiCases(h));
});
