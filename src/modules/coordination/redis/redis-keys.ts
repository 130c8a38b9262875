import { ValidationError } from '../../../common/index.js';

/** Characters with a meaning in a Redis glob pattern (SCAN MATCH, KEYS). */
const GLOB_SPECIALS = /[*?[\]\\]/g;

/**
 * The only builder of Redis keys for coordination (STYLE convention 10): the key layout is the schema.
 *
 * Every key is `{tw:<namespace>}:<kind>[:<id>]`. The braces are a Redis Cluster hash tag, so all keys of
 * one namespace land in one slot (multi-key Lua and BLMOVE work on Cluster) while namespaces spread
 * across shards. Caller-supplied ids always come last, so they can never collide with another kind.
 */
export class RedisKeys {
  /** `{tw:<namespace>}`; every key starts with it. */
  readonly prefix: string;

  /** @throws ValidationError when the namespace is empty or contains `{` or `}` (it would break the hash tag). */
  constructor(readonly namespace: string) {
    if (namespace.length === 0 || /[{}\s]/.test(namespace)) {
      throw new ValidationError('namespace', `coordination namespace '${namespace}' must be non-empty, without braces or spaces`);
    }
    this.prefix = `{tw:${namespace}}`;
  }

  /** String key holding the owner of lock `name` (PX-expiring). */
  lock(name: string): string {
    return `${this.prefix}:lock:${name}`;
  }

  /**
   * The single list of ids waiting for node `nodeId` that versions before fair sharing (issue 9) kept;
   * nothing is pushed to it any more, but what an older process left there is still claimed and drained.
   */
  legacyReady(nodeId: string): string {
    return `${this.prefix}:ready:${nodeId}`;
  }

  /** Rotation of node `nodeId`: list of the URI-encoded ids of the apps that have ids waiting for it, in turn order. */
  readyApps(nodeId: string): string {
    return `${this.prefix}:ready-apps:${nodeId}`;
  }

  /**
   * Prefix of the per-app ready lists of node `nodeId` (the Lua scripts name an app's list from it and the
   * app's entry in the rotation); the node id is URI-encoded so `:` in it cannot shift the app part.
   */
  readyAppPrefix(nodeId: string): string {
    return `${this.prefix}:ready-app:${encodeURIComponent(nodeId)}:`;
  }

  /** List of the ids of app `appId` waiting for node `nodeId` (RPUSH tail, claim from head); the app id is URI-encoded. */
  readyApp(nodeId: string, appId: string): string {
    return `${this.readyAppPrefix(nodeId)}${encodeURIComponent(appId)}`;
  }

  /** Wake-up list of node `nodeId`: holds a token (at most one) after a push; a waiting claim blocks on it (BLPOP). */
  readyBell(nodeId: string): string {
    return `${this.prefix}:ready-bell:${nodeId}`;
  }

  /** List of ids node `nodeId` has claimed but not acked yet. */
  processing(nodeId: string): string {
    return `${this.prefix}:processing:${nodeId}`;
  }

  /** Sorted set of delayed ids, score = due time (epoch ms). */
  delayed(): string {
    return `${this.prefix}:delayed`;
  }

  /** Sorted set of registered nodes, score = last heartbeat (epoch ms). */
  nodes(): string {
    return `${this.prefix}:nodes`;
  }

  /** Hash nodeId → advertisement JSON of the last heartbeat. */
  nodeInfo(): string {
    return `${this.prefix}:node-info`;
  }

  /** Sorted set of the holders of semaphore `name` (score = expiry, epoch ms). */
  semaphore(name: string): string {
    return `${this.prefix}:sem:${name}`;
  }

  /** Pub/sub channel `name` (not a key: nothing is stored; named alike so namespaces never hear each other). */
  channel(name: string): string {
    return `${this.prefix}:chan:${name}`;
  }

  /** Integer counter `name`. */
  counter(name: string): string {
    return `${this.prefix}:counter:${name}`;
  }

  /** Nonce marker of one app; the app id is URI-encoded so `:` in it cannot shift the nonce part. */
  nonce(appId: string, nonce: string): string {
    return `${this.prefix}:nonce:${encodeURIComponent(appId)}:${nonce}`;
  }

  /** Hash of token bucket `name` (tokens left, when counted; PEXPIRE-d once it would be full again). */
  bucket(name: string): string {
    return `${this.prefix}:bucket:${name}`;
  }

  /** SCAN MATCH pattern covering every key of this namespace (for tooling and test clean-up). */
  pattern(): string {
    return `${this.prefix.replace(GLOB_SPECIALS, (c) => `\\${c}`)}:*`;
  }
}
