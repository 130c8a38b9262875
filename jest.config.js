/**
 * The CommonJS Nest packages (nestjs-redis, nestjs-prometheus): Jest transforms them with nest-cjs-transform.cjs so
 * their require() of Nest reads the ESM copy that nest-esm-setup.mjs imported (one Nest per test file).
 */
const NEST_CJS = '@liaoliaots/nestjs-redis|@willsoto/nestjs-prometheus';
const NEST_CJS_TRANSFORM = { [`/node_modules/(${NEST_CJS})/.+\\.js$`]: '<rootDir>/test/jest/nest-cjs-transform.cjs' };

/**
 * Jest in native ESM mode: Nest 12 is ESM-only, so ts-jest emits ESM and `npm test` passes
 * --experimental-vm-modules. Three projects (tiers); `npm run test:<tier>` sets TEST_TIER to run one of them:
 * - unit: specs beside the code, the pure cases of test/cases and the chart checks of test/deploy (helm, promtool);
 *   no build, no MariaDB, no Redis.
 * - integration: test/integration, against the real MariaDB and Redis; no build.
 * - e2e: test/e2e, test/security and test/deploy's boot of the rendered chart; the real services, and the product started as child processes
 *   (node dist/src/main.js), so this project's global setup builds dist/.
 * - fault: test/fault, the slow failover cases (issue 27): servers of their own the tests start on loopback
 *   (test/utils/own-servers.ts: Redis Sentinel and Cluster, MariaDB primary and replica) killed, stopped or failed
 *   over under load; never the shared MariaDB or Redis. Builds dist/ as e2e does.
 * Settings every project needs (transform, module mapping, setup files) go in `base`.
 */
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  // The examples import the package's entries by name: in-process, the sources (tickwheel/client stays the built
  // entry, which typed-client.e2e-spec.ts imports by name on purpose).
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^tickwheel/(executor|testing|worker)$': '<rootDir>/src/$1/index.ts',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }], ...NEST_CJS_TRANSFORM },
  transformIgnorePatterns: [`/node_modules/(?!(${NEST_CJS})/)`],
  setupFiles: ['<rootDir>/test/jest/nest-esm-setup.mjs'],
};

const projects = [
  {
    ...base,
    displayName: 'unit',
    testMatch: [
      '<rootDir>/src/**/*.spec.ts',
      '<rootDir>/test/cases/**/*.spec.ts',
      '<rootDir>/test/deploy/**/*.spec.ts',
    ],
  },
  {
    ...base,
    displayName: 'integration',
    testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
  },
  {
    ...base,
    displayName: 'e2e',
    testMatch: [
      '<rootDir>/test/e2e/**/*.e2e-spec.ts',
      '<rootDir>/test/security/**/*.e2e-spec.ts',
      '<rootDir>/test/deploy/**/*.e2e-spec.ts',
    ],
    globalSetup: '<rootDir>/test/global-setup.mjs',
  },
  {
    ...base,
    displayName: 'fault',
    testMatch: ['<rootDir>/test/fault/**/*.fault-spec.ts'],
    globalSetup: '<rootDir>/test/global-setup.mjs',
  },
];

const tier = process.env.TEST_TIER;
if (tier && !projects.some((p) => p.displayName === tier))
  throw new Error(`TEST_TIER=${tier}: not unit, integration, e2e or fault`);

export default {
  maxWorkers: 2,
  // ESM test files cannot be unloaded: a worker grew to 3.5 GB over a full run and crawled in GC near its heap
  // limit, so the heavy suites that ran last timed out. A worker above this after a file is replaced.
  workerIdleMemoryLimit: '1GB',
  testTimeout: 30000, // a global option: in a project's config Jest ignores it
  projects: tier ? projects.filter((p) => p.displayName === tier) : projects,
};
