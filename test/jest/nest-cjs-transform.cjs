/**
 * Jest transform for the two CommonJS Nest packages (@liaoliaots/nestjs-redis, @willsoto/nestjs-prometheus).
 * Nest 12 is ESM-only: Node (22.12+, require of ESM) lets their require('@nestjs/common' | '@nestjs/core') load it at run time,
 * but Jest's CommonJS runtime cannot before Node 24.9. Each such require() is rewritten to read the ESM module
 * that nest-esm-setup.mjs imported into this test file's registry, so the packages and the app share one Nest.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');

/** Global slot the setup file fills: `{ '@nestjs/common': namespace, '@nestjs/core': namespace }`. */
const SLOT = 'tickwheel.jest.nestEsm';
const REQUIRE_NEST = /\brequire\(\s*(['"])(@nestjs\/(?:common|core))\1\s*\)/g;
const SELF = createHash('sha1').update(readFileSync(__filename)).digest('hex');

/** One-line expression (line numbers stay) that returns the published module or says the setup file is missing. */
const LOOKUP =
  `((name) => { const m = globalThis[Symbol.for(${JSON.stringify(SLOT)})]; if (m && m[name]) return m[name]; ` +
  "throw new Error(name + ' was not published by test/jest/nest-esm-setup.mjs (missing from setupFiles?)'); })";

module.exports = {
  process(source) {
    return { code: source.replace(REQUIRE_NEST, (_match, _quote, name) => `${LOOKUP}('${name}')`) };
  },
  getCacheKey(source, path, options) {
    return createHash('sha1').update(SELF).update(path).update(source).update(options.configString).digest('hex');
  },
};
