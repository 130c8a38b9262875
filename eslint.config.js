// ESLint (flat config): typescript-eslint's recommended rules, formatting left to Prettier (.prettierrc.json),
// no source line over 120 characters in src/, and the rules of this repository (scripts/lint/, each tested in
// test/cases/lint-rules.spec.ts): module boundaries, coordination concerns, job semaphores in admission only,
// at most 10 constructor parameters, job_instance query objects used by their callers only. `npm run lint` runs
// this, Prettier's check and scripts/check-source.mjs.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import constructorParams from './scripts/lint/constructor-params.mjs';
import coordinationConcerns from './scripts/lint/coordination-concerns.mjs';
import instanceQueryCallers from './scripts/lint/instance-query-callers.mjs';
import moduleBoundaries from './scripts/lint/module-boundaries.mjs';
import slotsInAdmission from './scripts/lint/slots-in-admission.mjs';

const tickwheel = {
  rules: {
    'module-boundaries': moduleBoundaries,
    'coordination-concerns': coordinationConcerns,
    'slots-in-admission': slotsInAdmission,
    'constructor-params': constructorParams,
    'instance-query-callers': instanceQueryCallers,
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-dev/**', '.dist-build-*/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { tickwheel },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // The console's page code (console/src) runs in the browser.
    files: ['console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'max-len': ['error', { code: 120, ignoreUrls: true }] },
  },
  {
    // CommonJS files (a Jest transform): require() is how they import.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.commonjs } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // After `prettier` on purpose: eslint-config-prettier turns max-len off.
      'max-len': ['error', { code: 120, ignoreUrls: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'tickwheel/module-boundaries': 'error',
      'tickwheel/coordination-concerns': 'error',
      'tickwheel/slots-in-admission': 'error',
      'tickwheel/constructor-params': ['error', { max: 10 }],
      'tickwheel/instance-query-callers': 'error',
    },
  },
);
