/** Deepest nesting of arrays/objects a request body may have. */
export const MAX_BODY_DEPTH = 64;

/**
 * The top-level key (an array body: the index) under which `value` is nested deeper than
 * {@link MAX_BODY_DEPTH}, or null. Checked right after the JSON parse (SignedRequestMiddleware), before the validation pipe's
 * recursive transform could overflow the stack (a 500); the walk itself is iterative.
 */
export function tooDeep(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const stack: Array<{ v: unknown; depth: number; top: string }> = Object.entries(value as object).map(([k, v]) => ({ v, depth: 1, top: k }));
  while (stack.length > 0) {
    const { v, depth, top } = stack.pop() as { v: unknown; depth: number; top: string };
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return top;
    for (const child of Object.values(v as object)) stack.push({ v: child, depth: depth + 1, top });
  }
  return null;
}
