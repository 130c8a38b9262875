/**
 * `npm run openapi:sync` writes openapi/openapi.json from the code; `npm run openapi:check` fails when the
 * committed file differs (CI runs it as part of the tests through test/e2e/openapi-spec.e2e-spec.ts).
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument, createApp } from '../bootstrap.js';
import { loadConfig } from '../config/index.js';

const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'tw-openapi-')), LOG_LEVEL: 'error' });
const app = await createApp(config);
const json = JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n';
await app.close();
const file = 'openapi/openapi.json';
if (process.argv.includes('--check')) {
  const current = readFileSync(file, 'utf8');
  if (current !== json) {
    process.stderr.write(`${file} is out of date: run npm run openapi:sync\n`);
    process.exit(1);
  }
  process.stdout.write(`${file} matches the code\n`);
} else {
  writeFileSync(file, json);
  process.stdout.write(`wrote ${file}\n`);
}
