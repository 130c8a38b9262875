// Generates src/client/openapi-types.ts (the typed client's paths, operations and components) from
// openapi/openapi.json with openapi-typescript, formatted by Prettier with the repository's settings so lint
// accepts it. `node scripts/openapi-types.mjs` writes it (part of `npm run openapi:sync`); with --check it fails
// when the committed file differs (`npm run openapi:check`; src/client/openapi-types.spec.ts checks the same).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SPEC_FILE = 'openapi/openapi.json';
export const TYPES_FILE = 'src/client/openapi-types.ts';

const HEADER = `/* eslint-disable */
// GENERATED from ${SPEC_FILE} by openapi-typescript (scripts/openapi-types.mjs): do not edit by hand.
// Regenerate with \`npm run openapi:sync\`; src/client/openapi-types.spec.ts fails when this file drifts from the spec.
`;

/**
 * Gives `additionalProperties: true` (in place) to each object schema a request body reaches that has properties
 * and is not closed, so openapi-typescript types it with an index signature: the typed client (src/client/
 * exact-body.ts) refuses a body key its type does not declare unless the type has one. openapi-typescript types
 * an absent additionalProperties and `false` alike (no index signature), so the open ones must be told apart here.
 */
function markOpenBodyObjects(spec) {
  const seen = new Set();
  const visit = (s) => {
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    if (typeof s.$ref === 'string')
      return visit(spec.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')]);
    if (s.properties && Object.keys(s.properties).length && s.additionalProperties === undefined) {
      s.additionalProperties = true;
    }
    Object.values(s.properties ?? {}).forEach(visit);
    [s.items, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].forEach(visit);
  };
  for (const item of Object.values(spec.paths ?? {})) {
    for (const op of Object.values(item)) Object.values(op?.requestBody?.content ?? {}).forEach((m) => visit(m.schema));
  }
  return spec;
}

/** The text of src/client/openapi-types.ts for an OpenAPI document given as JSON text. */
export async function renderClientTypes(specJson) {
  // emptyObjectsUnknown: a free-form object of the spec (a task's params, a result) is Record<string, unknown>,
  // not Record<string, never>.
  const spec = markOpenBodyObjects(JSON.parse(specJson));
  const ast = await openapiTS(spec, { silent: true, emptyObjectsUnknown: true });
  const file = `${ROOT}/${TYPES_FILE}`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(HEADER + astToString(ast), { ...options, filepath: file });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await renderClientTypes(readFileSync(`${ROOT}/${SPEC_FILE}`, 'utf8'));
  if (process.argv.includes('--check')) {
    if (readFileSync(`${ROOT}/${TYPES_FILE}`, 'utf8') !== text) {
      process.stderr.write(`${TYPES_FILE} is out of date: run npm run openapi:sync\n`);
      process.exit(1);
    }
    process.stdout.write(`${TYPES_FILE} matches ${SPEC_FILE}\n`);
  } else {
    writeFileSync(`${ROOT}/${TYPES_FILE}`, text);
    process.stdout.write(`wrote ${TYPES_FILE}\n`);
  }
}
