export * from './app-config.js';
export * from './load-config.js';
