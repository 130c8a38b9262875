export { OpenApiModule, PROBLEM_FILTER_PROVIDER } from './openapi.module.js';
export { ApiClientModule } from './auth/api-client.module.js';
export { ApiClientService, type ApiCredentials, checkScopes, type ClientLimits } from './auth/api-client.service.js';
export { SignedRequestMiddleware } from './auth/signed-request.middleware.js';
export { closeRequestBodies } from './closed-bodies.js';
export { createValidationPipe } from './filters/validation.pipe.js';
export { documentNoQuery } from './filters/query-params.interceptor.js';
export {
  documentIdempotency,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  KEYED_ROUTES,
} from './idempotency/idempotency-routes.js';
export { SIGNING_SCHEMES } from './auth/signed.decorator.js';
export { swaggerUiOptions } from './swagger-ui.js';
export { docsSafetyHeaders } from './docs-headers.js';
