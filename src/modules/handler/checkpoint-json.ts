/** `state` as JSON. @throws RangeError: not JSON (a function, BigInt, NaN, a cycle, …) or over `maxBytes` UTF-8. */
export function encodeCheckpoint(state: unknown, maxBytes: number): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(state, (key, v: unknown) => {
      const t = typeof v;
      if (t === 'function' || t === 'symbol' || t === 'bigint' || (t === 'number' && !Number.isFinite(v))) {
        throw new RangeError(`${key === '' ? 'the state' : `'${key}'`} is a ${t} (${String(v)})`);
      }
      return v;
    });
  } catch (err) {
    throw new RangeError(`checkpoint state is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (json === undefined) throw new RangeError('checkpoint state is not JSON: undefined');
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > maxBytes) {
    throw new RangeError(`checkpoint is ${bytes} bytes of JSON, over CHECKPOINT_MAX_BYTES (${maxBytes})`);
  }
  return json;
}
