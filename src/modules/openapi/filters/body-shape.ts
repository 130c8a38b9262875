import { MAX_BODY_VALUES, MAX_OBJECT_KEYS } from '../../../common/index.js';

/** Deepest nesting of arrays/objects a request body may have. */
export const MAX_BODY_DEPTH = 64;

/**
 * Keys refused anywhere in a body: the validation pipe deletes them silently (Nest's stripProtoKeys, then
 * class-transformer), so what was signed and what would be stored differ; refused, they are never data.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** What is wrong with a body's shape: the field to name and the sentence to say. */
export interface BodyShapeFault {
  field: string;
  message: string;
}

/** One object or array of the body, and where it sits. */
interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: string;
}

/**
 * The first fault of a parsed JSON body's shape, or null. Checked right after the JSON parse
 * (SignedRequestMiddleware), before the validation pipe walks the body, several times, with class-transformer
 * (which dedupes each object's keys in quadratic time) and could overflow the stack on deep nesting (a 2 MiB
 * body of many keys blocked the event loop for seconds there). In one iterative walk:
 * - nesting deeper than {@link MAX_BODY_DEPTH}: names the top-level field under which it is;
 * - more than MAX_BODY_VALUES JSON values in all: names the top-level field being walked when the count passed it;
 * - an object of more than MAX_OBJECT_KEYS keys: names the object (`params`, `tasks[3].params`; `body` for the body);
 * - a key `__proto__`, `constructor` or `prototype` at any depth: names it (`params.__proto__`).
 */
export function bodyShapeFault(body: unknown): BodyShapeFault | null {
  if (!body || typeof body !== 'object') return null;
  const stack: Frame[] = [{ value: body, depth: 0, parent: null, key: '' }];
  let values = 1;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth >= MAX_BODY_DEPTH)
      return { field: topField(frame), message: `${topField(frame)} is nested deeper than ${MAX_BODY_DEPTH} levels` };
    const isArray = Array.isArray(frame.value);
    const keys = isArray ? null : Object.keys(frame.value);
    const children: unknown[] = isArray
      ? (frame.value as unknown[])
      : (keys as string[]).map((k) => (frame.value as Record<string, unknown>)[k]);
    if (keys && keys.length > MAX_OBJECT_KEYS)
      return {
        field: pathOf(frame),
        message: `${pathOf(frame)} has more than ${MAX_OBJECT_KEYS} keys (${keys.length})`,
      };
    const forbidden = keys?.find((k) => PROTOTYPE_KEYS.has(k));
    if (forbidden !== undefined) {
      const field = childPath(frame, forbidden);
      return {
        field,
        message: `${field}: the keys __proto__, constructor and prototype are refused anywhere in a body`,
      };
    }
    values += children.length;
    if (values > MAX_BODY_VALUES)
      return {
        field: topField(frame),
        message:
          `the body holds more than ${MAX_BODY_VALUES} JSON values in all ` +
          `(the count passed it at ${pathOf(frame)})`,
      };
    children.forEach((v, i) => {
      if (v && typeof v === 'object')
        stack.push({ value: v, depth: frame.depth + 1, parent: frame, key: keys ? keys[i] : `[${i}]` });
    });
  }
  return null;
}

/** The path of `frame` as a validation error names it (`tasks[3].params`), `body` for the body itself. */
function pathOf(frame: Frame): string {
  if (!frame.parent) return 'body';
  const parent = frame.parent.parent ? pathOf(frame.parent) : '';
  return frame.key.startsWith('[') || !parent ? `${parent}${frame.key}` : `${parent}.${frame.key}`;
}

function childPath(frame: Frame, key: string): string {
  return frame.parent ? `${pathOf(frame)}.${key}` : key;
}

/** The top-level key (an array body: the index) under which `frame` is; `body` for the body itself. */
function topField(frame: Frame): string {
  let f = frame;
  while (f.parent?.parent) f = f.parent;
  return f.parent ? f.key.replace(/^\[(\d+)\]$/, '$1') : 'body';
}
