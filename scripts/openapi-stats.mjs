// Prints how complete the committed OpenAPI document is (issue 14): operations, documented responses, responses
// with a body schema, error responses (4xx/5xx) with the problem+json schema, component schema fields and how
// many of them have a description. Usage: node scripts/openapi-stats.mjs [path, default openapi/openapi.json]
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'openapi/openapi.json';
const doc = JSON.parse(readFileSync(file, 'utf8'));
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

let operations = 0;
let responses = 0;
let withSchema = 0;
let errors = 0;
let problemErrors = 0;
for (const item of Object.values(doc.paths ?? {})) {
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    operations++;
    for (const [status, res] of Object.entries(op.responses ?? {})) {
      responses++;
      const content = res.content ?? {};
      if (Object.values(content).some((c) => c.schema)) withSchema++;
      if (/^[45]/.test(status)) {
        errors++;
        if (content['application/problem+json']?.schema) problemErrors++;
      }
    }
  }
}

let fields = 0;
let described = 0;
for (const schema of Object.values(doc.components?.schemas ?? {})) {
  for (const prop of Object.values(schema.properties ?? {})) {
    fields++;
    if (typeof prop.description === 'string' && prop.description.trim() !== '') described++;
  }
}

const rows = [
  ['routes (operations)', operations],
  ['documented responses', responses],
  ['responses with a body schema', withSchema],
  ['error responses (4xx/5xx)', errors],
  ['error responses with problem+json', problemErrors],
  ['component schema fields', fields],
  ['described fields', described],
];
for (const [name, n] of rows) process.stdout.write(`${name.padEnd(36)}${String(n).padStart(6)}\n`);
