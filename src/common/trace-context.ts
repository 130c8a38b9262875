import { createHash, randomBytes } from 'node:crypto';

/**
 * A W3C trace context (https://www.w3.org/TR/trace-context/): `traceId` 32 lower-case hex, `spanId` (the header's
 * parent-id) 16 lower-case hex, `flags` 2 hex (bit 0: sampled). Neither id is all zeros.
 */
export interface TraceContext {
  traceId: string;
  spanId: string;
  flags: string;
}

/** Version, trace-id, parent-id, flags; a version after 00 may carry more after a dash (the spec's forward rule). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * The trace context of a `traceparent` header, or null when it is absent or malformed (upper-case hex, a wrong
 * length, version ff, all-zero ids, several headers joined): the spec's receiver then starts a new trace.
 */
export function parseTraceparent(header: unknown): TraceContext | null {
  if (typeof header !== 'string' || header.length > 512) return null;
  const m = TRACEPARENT.exec(header);
  if (!m) return null;
  const [, version, traceId, spanId, flags, more] = m;
  if (version === 'ff' || (version === '00' && more !== undefined)) return null;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  // A later version's flags: only the sampled bit is known.
  return { traceId, spanId, flags: version === '00' ? flags : parseInt(flags, 16) & 1 ? '01' : '00' };
}

/** The version-00 `traceparent` header of `ctx`. */
export function formatTraceparent(ctx: TraceContext): string {
  return `00-${ctx.traceId}-${ctx.spanId}-${ctx.flags}`;
}

/** A random span id: 16 hex, never all zeros. */
export function newSpanId(): string {
  for (;;) {
    const id = randomBytes(8).toString('hex');
    if (id !== ZERO_SPAN) return id;
  }
}

/** A random trace id: 32 hex, never all zeros. */
export function newTraceId(): string {
  for (;;) {
    const id = randomBytes(16).toString('hex');
    if (id !== ZERO_TRACE) return id;
  }
}

/**
 * A new span of `parent`'s trace (same trace id and flags), or the root of a new sampled trace `traceId`; `spanId`
 * default random.
 */
export function childContext(parent: TraceContext | null, traceId = newTraceId(), spanId = newSpanId()): TraceContext {
  return parent ? { ...parent, spanId } : { traceId, spanId, flags: '01' };
}

/** A span id derived from a unique `seed` (an instance id, with a fencing token for an attempt): 16 hex, not zero. */
export function spanIdOf(seed: string): string {
  const id = createHash('sha256').update(seed).digest('hex').slice(0, 16);
  return id === ZERO_SPAN ? '0000000000000001' : id;
}

/**
 * The span id of one attempt of an instance: derived from its id and fencing token, so the process that claims it
 * and the one that records its end (an app worker's finish reaches any api pod) name the same span.
 */
export function attemptSpanId(instanceId: string, fencingToken: number): string {
  return spanIdOf(`${instanceId}:${fencingToken}`);
}

/** A row's trace context: its stored `traceparent`, else (rows written before the column) one over its trace id. */
export function instanceTrace(row: { traceId: string; traceparent?: string | null }): TraceContext {
  const stored = parseTraceparent(row.traceparent);
  if (stored) return stored;
  const traceId = /^[0-9a-f]{32}$/.test(row.traceId) && row.traceId !== ZERO_TRACE ? row.traceId : newTraceId();
  return { traceId, spanId: traceId.slice(16), flags: '01' };
}

/** The context an attempt runs in: the instance's trace, the attempt's own span id. */
export function attemptTrace(
  row: { id: string; traceId: string; traceparent?: string | null },
  fencingToken: number,
): TraceContext {
  return { ...instanceTrace(row), spanId: attemptSpanId(row.id, fencingToken) };
}
