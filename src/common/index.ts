export * from './clock/clock.js';
export * from './clock/repeat.js';
export * from './errors/scheduler-error.js';
export * from './ids.js';
export * from './signing.js';
export * from './group-commit.js';
export * from './group-by.js';
export * from './limits.js';
