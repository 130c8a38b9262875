// Jest global setup: the tests that start the real product as child processes (node dist/src/main.js)
// need dist/ built from the current sources. Build once, before any worker starts, and only when an input
// is newer than the last build (scripts/build-lib.mjs, the same rule as `npm start`).
import { build, isStale } from '../scripts/build-lib.mjs';

export default function globalSetup() {
  if (!isStale()) return;
  process.stdout.write('\n[global-setup] building dist/ for the process-level tests\n');
  build();
}
