// The Node.js versions Tickwheel runs on (package.json `engines`: ^22.15.0 || >=24.11.0; docs/deploy.md
// "Node.js version"). `npm start`, `npm run tw` and the other CLIs check it first (scripts/ensure-built.mjs):
// on Node 20, better-sqlite3 13 crashes the process with a segmentation fault instead of an error.

/**
 * Whether Node `version` (e.g. `v22.23.5`) is one Tickwheel supports: 22.15+ (22 LTS), or 24.11+ (24 LTS and later).
 * @param {string} version
 * @returns {boolean}
 */
export function nodeSupported(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (major === 22) return minor >= 15;
  if (major === 24) return minor >= 11;
  return major > 24;
}

/** The line printed when this Node is not supported. @param {string} version */
export function unsupportedMessage(version) {
  return (
    `Tickwheel needs Node.js 22.15+ or 24.11+ (package.json "engines"); this is ${version}. ` +
    `On Linux x64, eval "$(.ci/node/env 22)" puts the pinned Node 22 first on PATH (docs/deploy.md "Node.js version").\n`
  );
}
