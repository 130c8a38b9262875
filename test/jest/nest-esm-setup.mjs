// Jest setup file: imports Nest's ESM modules into each test file's module registry and publishes them for
// the require() calls that nest-cjs-transform.cjs rewrites, so the CommonJS Nest packages use this same copy.
import * as common from '@nestjs/common';
import * as core from '@nestjs/core';

globalThis[Symbol.for('tickwheel.jest.nestEsm')] = { '@nestjs/common': common, '@nestjs/core': core };
