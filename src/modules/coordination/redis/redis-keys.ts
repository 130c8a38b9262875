import { ValidationError } from '../../../common/index.js';

/** Characters with a meaning in a Redis glob pattern (SCAN MATCH, KEYS). */
const GLOB_SPECIALS = /[*?[\]\\]/g;

/**
 * The only builder of coordination keys (docs/redis-keys.md): `{tw:<namespace>}:<kind>[:<id>]`. The braces are a
 * Cluster hash tag, so a namespace's keys share one slot (multi-key Lua works) while namespaces spread across
 * shards; caller-supplied ids come last, so they never collide with another kind.
 */
export class RedisKeys {
  /** `{tw:<namespace>}`; every key starts with it. */
  readonly prefix: string;

  /** @throws ValidationError when the namespace is empty or contains `{` or `}` (it would break the hash tag). */
  constructor(readonly namespace: string) {
    if (namespace.length === 0 || /[{}\s]/.test(namespace)) {
      const why = `coordination namespace '${namespace}' must be non-empty, without braces or spaces`;
      throw new ValidationError('namespace', why);
    }
    this.prefix = `{tw:${namespace}}`;
  }

  /** String key holding the owner of lock `name` (PX-expiring). */
  lock(name: string): string {
    return `${this.prefix}:lock:${name}`;
  }

  /** The single ready list of versions before fair sharing: no longer pushed to, still claimed and drained. */
  legacyReady(nodeId: string): string {
    return `${this.prefix}:ready:${nodeId}`;
  }

  /** Rotation of node `nodeId`: the URI-encoded ids of the apps with ids waiting for it, in turn order. */
  readyApps(nodeId: string): string {
    return `${this.prefix}:ready-apps:${nodeId}`;
  }

  /** Prefix of node `nodeId`'s per-app sets (Lua appends the app); URI-encoded so `:` cannot shift the app part. */
  readyRankPrefix(nodeId: string): string {
    return `${this.prefix}:ready-rank:${encodeURIComponent(nodeId)}:`;
  }

  /** Sorted set of the ids of app `appId` (URI-encoded) waiting for node `nodeId`, score = rank (lowest first). */
  readyRank(nodeId: string, appId: string): string {
    return `${this.readyRankPrefix(nodeId)}${encodeURIComponent(appId)}`;
  }

  /** Prefix of the per-app FIFO lists of versions before priorities: no longer pushed to, still claimed and drained. */
  readyAppPrefix(nodeId: string): string {
    return `${this.prefix}:ready-app:${encodeURIComponent(nodeId)}:`;
  }

  /** Wake-up list of node `nodeId`: at most one token after a push; a waiting claim blocks on it (BLPOP). */
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
