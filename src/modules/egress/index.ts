export {
  APP_EGRESS_ALLOW,
  type AppEgressAllow,
  type EgressConfig,
  EGRESS_POLICY,
  EGRESS_RESOLVER,
  EgressModule,
} from './egress.module.js';
export {
  type EgressDestination,
  EgressPolicy,
  type EgressPolicyOptions,
  type EgressRefusal,
  EgressRefusedError,
  type EgressVerdict,
  urlPort,
} from './egress-policy.js';
export { type EgressEntry, type EgressList, parseEgressEntry, parseEgressList } from './egress-entry.js';
export {
  buildEgressPolicy,
  type EgressResolver,
  type EgressSettings,
  interfaceAddresses,
  type ResolvedAddress,
  systemResolver,
} from './egress-resolver.js';
export {
  DEFAULT_MAX_REDIRECTS,
  egressHttp,
  type EgressHttpOptions,
  type EgressHttpRequest,
  type EgressHttpResponse,
} from './egress-http.js';
export { type BoundedBody, readBoundedBody } from './response-body.js';
export { canonicalIp } from './ip-address.js';
