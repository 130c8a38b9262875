import { MAX_BODY_VALUES, MAX_OBJECT_KEYS } from '../../../common/index.js';
import { bodyShapeFault, MAX_BODY_DEPTH } from './body-shape.js';

const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe('bodyShapeFault', () => {
  it('passes a body within every bound, and anything that is not an object or array', () => {
    expect(
      bodyShapeFault({
        tasks: [{ handler: 'noop', params: { a: nested(MAX_BODY_DEPTH - 4), ...keys(MAX_OBJECT_KEYS - 1) } }],
      }),
    ).toBeNull();
    for (const v of [null, 1, 'x', undefined]) expect(bodyShapeFault(v)).toBeNull();
  });

  it('names the top-level field under which the body is nested too deep (an array body: the index)', () => {
    expect(bodyShapeFault({ ok: 1, params: { deep: nested(MAX_BODY_DEPTH) } })).toEqual({
      field: 'params',
      message: `params is nested deeper than ${MAX_BODY_DEPTH} levels`,
    });
    expect(bodyShapeFault([{}, nested(MAX_BODY_DEPTH + 1)])?.field).toBe('1');
  });

  it('names an object of more than MAX_OBJECT_KEYS keys by its path', () => {
    expect(bodyShapeFault({ tasks: [{}, { params: keys(MAX_OBJECT_KEYS + 1) }] })).toEqual({
      field: 'tasks[1].params',
      message: `tasks[1].params has more than ${MAX_OBJECT_KEYS} keys (${MAX_OBJECT_KEYS + 1})`,
    });
    expect(bodyShapeFault(keys(MAX_OBJECT_KEYS + 1))?.field).toBe('body');
  });

  it('names the top-level field being walked when the body passes MAX_BODY_VALUES values', () => {
    const fault = bodyShapeFault({ handler: 'noop', junk: { a: Array.from({ length: MAX_BODY_VALUES }, () => 0) } });
    expect(fault).toEqual({
      field: 'junk',
      message: `the body holds more than ${MAX_BODY_VALUES} JSON values in all (the count passed it at junk.a)`,
    });
    // the body, a and its items
    expect(bodyShapeFault({ a: Array.from({ length: MAX_BODY_VALUES - 2 }, () => 0) })).toBeNull();
  });

  it('takes the batch docs/api.md promises (1,000 tasks with a params of 100 values each) and refuses 101', () => {
    const batch = (values: number) => ({
      tasks: Array.from({ length: 1000 }, (_, i) => ({
        requestId: `r-${i}`,
        handler: 'noop',
        params: Object.fromEntries(Array.from({ length: values }, (_, k) => [`k${k}`, k])),
      })),
    });
    expect(bodyShapeFault(batch(100))).toBeNull();
    expect(bodyShapeFault(batch(101))?.message).toMatch(`more than ${MAX_BODY_VALUES} JSON values`);
  });

  it('names a __proto__, constructor or prototype key at any depth (as JSON.parse makes them: own keys)', () => {
    for (const [text, field] of [
      ['{"__proto__":{"polluted":1}}', '__proto__'],
      ['{"params":{"constructor":{"prototype":{"x":1}}}}', 'params.constructor'],
      ['{"tasks":[{"params":{"a":[{"prototype":1}]}}]}', 'tasks[0].params.a[0].prototype'],
      ['[{"__proto__":1}]', '[0].__proto__'],
    ]) {
      const fault = bodyShapeFault(JSON.parse(text));
      expect(fault?.field).toBe(field);
      expect(fault?.message).toMatch(/the keys __proto__, constructor and prototype are refused anywhere in a body$/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
