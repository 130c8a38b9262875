// Builds dist/ only when it is stale: missing, or an input (src/, examples/, ormconfig.ts, tsconfig*.json,
// nest-cli.json, package.json, *.lua assets) newer than its last build (scripts/build-lib.mjs). `npm start`,
// `npm run tw` and the other CLIs run it first, so a start after `npm ci` or an edit builds, and any other start
// takes no time. `--fresh` is accepted for older callers: staleness is always checked now.
import { build, isStale } from './build-lib.mjs';
import { nodeSupported, unsupportedMessage } from './node-version.mjs';

if (!nodeSupported(process.version)) {
  process.stderr.write(unsupportedMessage(process.version));
  process.exit(1);
}

if (isStale()) {
  process.stderr.write('[ensure-built] sources are newer than dist/: building (dist/ stays usable meanwhile)\n');
  build();
}
