import { readFileSync } from 'node:fs';
import { renderClientTypes, SPEC_FILE, TYPES_FILE } from '../../scripts/openapi-types.mjs';

/**
 * The typed client is only as true as its types: they must be what openapi-typescript makes of the committed
 * spec. Fails when openapi/openapi.json changed without `npm run openapi:sync` (or the types were edited).
 */
describe('src/client/openapi-types.ts', () => {
  it('should be what openapi-typescript generates from openapi/openapi.json', async () => {
    const expected = await renderClientTypes(readFileSync(SPEC_FILE, 'utf8'));
    const committed = readFileSync(TYPES_FILE, 'utf8');
    const a = committed.split('\n');
    const b = expected.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]) + 1 || (a.length === b.length ? 0 : a.length + 1);
    if (line > 0) throw new Error(`${TYPES_FILE} differs at line ${line} from ${SPEC_FILE}: run npm run openapi:sync`);
  }, 60_000);

  it('should give an open request-body object an index signature, a closed one none', async () => {
    // The typed client (exact-body.ts) takes any key only where the type has an index signature.
    const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as { components: { schemas: Record<string, object> } };
    const closed = spec.components.schemas.SubmitTaskDto as { additionalProperties?: boolean };
    expect(closed.additionalProperties).toBe(false);
    const taskType = (text: string) => /\n {4}SubmitTaskDto: [^]*?\n {4}\};/.exec(text)?.[0] ?? '';
    expect(taskType(readFileSync(TYPES_FILE, 'utf8'))).not.toContain('[key: string]: unknown');
    delete closed.additionalProperties;
    expect(taskType(await renderClientTypes(JSON.stringify(spec)))).toContain('[key: string]: unknown');
  }, 60_000);

  it('should type every path of the spec', () => {
    const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as { paths: Record<string, unknown> };
    const types = readFileSync(TYPES_FILE, 'utf8');
    const missing = Object.keys(spec.paths).filter((p) => !types.includes(`  '${p}': {`));
    expect(missing).toEqual([]);
  });
});
