/**
 * Jest in native ESM mode: Nest 12 is ESM-only, so ts-jest emits ESM and `npm test` passes
 * --experimental-vm-modules. Three projects, each selectable with `--selectProjects` (npm run test:<name>):
 * - unit: specs beside the code and the pure cases of test/cases; no build, no MariaDB, no Redis.
 * - integration: test/integration, against the real MariaDB and Redis; no build.
 * - e2e: test/e2e and test/security; the real services, and the product started as child processes
 *   (node dist/src/main.js), so only this project's global setup builds dist/.
 * Settings every project needs (transform, module mapping, setup files) go in `base`.
 */
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testTimeout: 30000,
};

export default {
  maxWorkers: 2,
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/cases/**/*.spec.ts'],
    },
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/test/security/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.mjs',
    },
  ],
};
