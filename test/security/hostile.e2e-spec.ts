import { SHAPES } from '../utils/tenancy.js';
import { bodyCases } from './cases/bodies.js';
import { callbackCases } from './cases/callbacks.js';
import { limitCases } from './cases/limits.js';
import { numberCases } from './cases/numbers.js';
import { signingCases } from './cases/signing.js';
import { tenancyCases } from './cases/tenancy.js';
import { hostileHarness } from './harness.js';

/**
 * The hostile-input suite (issue 9 point 8): every finding of issue 9 and the usual attacks, against one node of
 * each shape. Each case asserts the answer (status, problem+json code, and the field or scope it names), that no
 * row of the namespace changed (job definitions, instances, attempts, audit, the run's API clients) and that
 * /health/ready still answers 200. A case name cites its finding: `[9-C1 …]` is issue 9's first CRITICAL finding,
 * `[9-H…]` HIGH, `[9-M…]` MEDIUM, `[9 point n]` a point of what to build, `[usual]` the usual hostile input.
 * The focused specs under test/e2e prove the details; this suite sweeps the input space with one case per finding.
 */
describe.each(SHAPES)('hostile input (%s)', (shape, env) => {
  const h = hostileHarness(shape as 'standalone' | 'cluster', env);
  describe('signing', () => signingCases(h));
  describe('bodies', () => bodyCases(h));
  describe('numbers', () => numberCases(h));
  describe('tenancy', () => tenancyCases(h));
  describe('limits', () => limitCases(h));
  describe('callbacks', () => callbackCases(h));
});
