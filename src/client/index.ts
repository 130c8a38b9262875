// The client entry (`tickwheel/client`): the typed client generated from the spec, its parts, and the
// hand-written TickwheelClient the CLIs use (kept for them and for callers of its four calls).
export * from './typed-client.js';
export * from './problem.js';
export { isIdempotent, RETRY_STATUSES, retryAfterMs } from './retry.js';
export { signedRequest, signingMiddleware, type SigningCredentials } from './signing-middleware.js';
export * from './tickwheel-client.js';
