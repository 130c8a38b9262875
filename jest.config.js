/**
 * Jest in native ESM mode: Nest 12 is ESM-only, so ts-jest emits ESM and `npm test` passes
 * --experimental-vm-modules. Integration and e2e tests talk to the real MariaDB and Redis.
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  maxWorkers: 2,
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/global-setup.mjs',
};
