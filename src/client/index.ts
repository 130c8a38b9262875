// `tickwheel/client`: the typed client, its parts, and the hand-written TickwheelClient the CLIs use.
export * from './typed-client.js';
export * from './problem.js';
export {
  isIdempotent,
  isReplayableSubmit,
  RETRY_STATUSES,
  retryAfterMs,
  type RetryOptions,
  SUBMIT_RETRY_STATUSES,
} from './retry.js';
export { signedRequest, signingMiddleware, type SigningCredentials } from './signing-middleware.js';
export * from './tickwheel-client.js';
export { type ClientAgent, sharedAgent } from './http-transport.js';
