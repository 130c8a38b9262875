export { OpenApiModule, PROBLEM_FILTER_PROVIDER } from './openapi.module.js';
export { ApiClientService, type ApiCredentials } from './auth/api-client.service.js';
export { createValidationPipe } from './filters/validation.pipe.js';
