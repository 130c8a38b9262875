export * from './app-config.js';
export * from './load-config.js';
export * from './core.module.js';
export * from './secrets.js';
export * from './shell-settings.js';
export * from './redis-settings.js';
