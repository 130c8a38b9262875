import { CorruptJson, corruptFields, corruptionOf, jsonText } from './columns.js';

describe('jsonText', () => {
  it('reads JSON text, and null as null', () => {
    expect(jsonText.from('{"a":[1,"é"]}')).toEqual({ a: [1, 'é'] });
    expect(jsonText.from(null)).toBeNull();
  });

  it('never throws on text that is not JSON: a cut TEXT reads as a CorruptJson marker with its length', () => {
    const cut = JSON.stringify({ blob: 'é'.repeat(40_000) }).slice(0, 30_000);
    const v = jsonText.from(cut) as CorruptJson;
    expect(v).toBeInstanceOf(CorruptJson);
    expect(v.bytes).toBe(Buffer.byteLength(cut));
    expect(v.cause).toMatch(/JSON/);
    expect(jsonText.from('')).toBeInstanceOf(CorruptJson);
  });

  it('serialises a marker as null, so answers and copies never carry it', () => {
    expect(JSON.stringify({ params: new CorruptJson(65_535, 'x'), ok: 1 })).toBe('{"params":null,"ok":1}');
  });
});

describe('corruptionOf', () => {
  it('names every unreadable field of a row, or null for a sound one', () => {
    const row = { id: 'i1', params: new CorruptJson(65_535, 'x'), result: new CorruptJson(12, 'y'), error: null };
    expect(corruptFields(row)).toEqual([
      { field: 'params', bytes: 65_535 },
      { field: 'result', bytes: 12 },
    ]);
    expect(corruptionOf(row)).toBe(
      'CORRUPT_ROW: params is not valid JSON (65535 bytes); result is not valid JSON (12 bytes)',
    );
    expect(corruptionOf({ id: 'i2', params: {} })).toBeNull();
  });
});
