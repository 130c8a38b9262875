import { createHash, randomBytes } from 'node:crypto';

/** A W3C trace context (www.w3.org/TR/trace-context): ids lower-case hex, not all zeros; `flags` bit 0: sampled. */
export interface TraceContext {
  traceId: string;
  spanId: string;
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * A `traceparent` header's context; null if absent or malformed (upper-case, version ff, zero ids, joined headers).
 */
export function parseTraceparent(header: unknown): TraceContext | null {
  if (typeof header !== 'string' || header.length > 512) return null;
  const m = TRACEPARENT.exec(header);
  if (!m) return null;
  const [, version, traceId, spanId, flags, more] = m;
  if (version === 'ff' || (version === '00' && more !== undefined)) return null;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  return { traceId, spanId, flags: version === '00' ? flags : parseInt(flags, 16) & 1 ? '01' : '00' };
}

/** The version-00 `traceparent` header of `ctx`. */
export function formatTraceparent(ctx: TraceContext): string {
  return `00-${ctx.traceId}-${ctx.spanId}-${ctx.flags}`;
}

/** A random id of `bytes` bytes as hex, never all zeros. */
function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (/[^0]/.test(id)) return id;
  }
}

export const newSpanId = (): string => randomId(8);
export const newTraceId = (): string => randomId(16);

/** A span `spanId` of `parent`'s trace (same id and flags), or the root of a new sampled trace `traceId`. */
export function childContext(parent: TraceContext | null, traceId = newTraceId(), spanId = newSpanId()): TraceContext {
  return parent ? { ...parent, spanId } : { traceId, spanId, flags: '01' };
}

/** A span id derived from a unique `seed` (an instance id, with a fencing token for an attempt): 16 hex, not zero. */
export function spanIdOf(seed: string): string {
  const id = createHash('sha256').update(seed).digest('hex').slice(0, 16);
  return id === ZERO_SPAN ? '0000000000000001' : id;
}

/** An attempt's span id, from its instance and token: whichever process records its end names the same span. */
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
