export { CallbackSenderModule } from './callback-sender.module.js';
export { CallbackSender } from './sender/callback-sender.service.js';
export { CallbackPost } from './sender/callback-post.js';
export { type CallbackBody, callbackBody } from './sender/payload.js';
export { classifyTry, retryAfterMs, retryWaitMs, type TryOutcome, type TryResult } from './sender/outcome.js';
export { CallbacksApiModule } from './api/callbacks-api.module.js';
export { CallbackRegistrations, auditedUrl } from './api/callback-registrations.service.js';
export { CallbackRedeliver } from './api/callback-redeliver.service.js';
export { CallbackHosts } from './api/callback-hosts.service.js';
