/**
 * The CommonJS Nest packages (nestjs-redis, nestjs-prometheus): Jest transforms them with nest-cjs-transform.cjs so
 * their require() of Nest reads the ESM copy that nest-esm-setup.mjs imported (one Nest per test file).
 */
const NEST_CJS = '@liaoliaots/nestjs-redis|@willsoto/nestjs-prometheus';
const NEST_CJS_TRANSFORM = { [`/node_modules/(${NEST_CJS})/.+\\.js$`]: '<rootDir>/test/jest/nest-cjs-transform.cjs' };

/**
 * Jest in native ESM mode: Nest 12 is ESM-only, so ts-jest emits ESM and `npm test` passes
 * --experimental-vm-modules. Integration and e2e tests talk to the real MariaDB and Redis.
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }], ...NEST_CJS_TRANSFORM },
  transformIgnorePatterns: [`/node_modules/(?!(${NEST_CJS})/)`],
  setupFiles: ['<rootDir>/test/jest/nest-esm-setup.mjs'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  maxWorkers: 2,
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/global-setup.mjs',
};
