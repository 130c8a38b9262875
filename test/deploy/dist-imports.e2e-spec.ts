import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';

const ROOT = process.cwd();
// Import and re-export declarations as tsc emits them, side-effect imports, dynamic imports.
const IMPORTS = [
  /^\s*(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];
// Loaded by name at run time, never imported by dist/ (as scripts/check-prod-deps.mjs lists them).
const LOADED_BY_NAME = ['mysql2', 'better-sqlite3', '@nestjs/platform-express', 'ioredis'];

/** Package name → the dist/ files that import it. */
function distImports(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const e of readdirSync(join(ROOT, 'dist'), { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.js')) continue;
    const file = join(e.parentPath, e.name);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of IMPORTS.flatMap((re) => [...text.matchAll(re)])) {
      if (spec.startsWith('.') || isBuiltin(spec)) continue;
      const parts = spec.split('/');
      const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      found.set(name, [...(found.get(name) ?? []), file.slice(ROOT.length + 1)]);
    }
  }
  return found;
}

/**
 * The cheap half of the release check scripts/check-prod-deps.mjs (docs/deploy.md "The image"), in CI: every package
 * the built product imports is a production dependency, so the image's `npm ci --omit=dev` installs it. The other
 * half (install and start) takes minutes and runs before a release.
 */
describe('dist/ imports production dependencies only', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  // The user's app brings the peers (Nest, reflect-metadata, rxjs); the image installs them as the lock has them.
  const declared = { ...pkg.dependencies, ...pkg.peerDependencies };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const imports = distImports();

  it('should find the imports of the product it scans', () => {
    expect(imports.get('@nestjs/core')).toEqual(expect.arrayContaining(['dist/src/bootstrap.js']));
    expect(imports.size).toBeGreaterThan(10);
  });

  it('should import only packages listed in dependencies or peers, which the lock installs without dev', () => {
    // the examples import the package's own entries by its name (self-reference through "exports")
    const names = [...new Set([...imports.keys(), ...LOADED_BY_NAME])].filter((n) => n !== pkg.name);
    const undeclared = names.filter((n) => !(n in declared)).map((n) => `${n} (${imports.get(n)?.[0]})`);
    expect(undeclared).toEqual([]);
    const devOnly = names.filter((n) => {
      const entry = lock.packages[`node_modules/${n}`];
      return !entry || entry.dev === true;
    });
    expect(devOnly).toEqual([]);
  });
});
