// `tickwheel/client`: the typed client, its parts, and the hand-written TickwheelClient the CLIs use.
export * from './typed-client.js';
export * from './problem.js';
export { isIdempotent, RETRY_STATUSES, retryAfterMs } from './retry.js';
export { signedRequest, signingMiddleware, type SigningCredentials } from './signing-middleware.js';
export * from './tickwheel-client.js';
