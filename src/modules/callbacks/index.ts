export { CallbacksApiModule } from './api/callbacks-api.module.js';
export { CallbackRegistrations, auditedUrl } from './api/callback-registrations.service.js';
export { CallbackRedeliver } from './api/callback-redeliver.service.js';
