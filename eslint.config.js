// ESLint (flat config): typescript-eslint's recommended rules, formatting left to Prettier (.prettierrc.json),
// plus the two rules of this repository: a module imports another only through its index.ts, and no source
// line over 120 characters in src/. `npm run lint` runs this, Prettier's check and scripts/check-source.mjs.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import moduleBoundaries from './scripts/lint/module-boundaries.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-dev/**', '.dist-build-*/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { tickwheel: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
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
    rules: { 'tickwheel/module-boundaries': 'error' },
  },
);
