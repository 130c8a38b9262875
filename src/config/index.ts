export * from './app-config.js';
export * from './load-config.js';
export * from './core.module.js';
