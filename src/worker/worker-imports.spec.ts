import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { importsIn, ROOT } from '../../scripts/lint/module-graph.mjs';

/** Packages that open database or Redis connections: the worker entry must never load them. */
const HEAVY = /^(mysql2|typeorm|@nestjs\/typeorm|better-sqlite3|ioredis|@liaoliaots\/nestjs-redis)(\/|$)/;

/** Every source file `tickwheel/worker` reaches through relative imports, and the packages they import. */
function reach(entry: string): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const f of ts.preProcessFile(text, true, true).importedFiles) {
      if (!f.fileName.startsWith('.')) packages.add(f.fileName);
    }
    todo.push(...importsIn(file, text));
  }
  return { files: [...files].sort(), packages };
}

/** The runtime check (a child process importing dist/src/worker/index.js): test/e2e/worker-protocol.e2e-spec.ts. */
describe('tickwheel/worker imports', () => {
  const { files, packages } = reach('src/worker/index.ts');

  it('reaches no database, TypeORM or Redis package', () => {
    expect([...packages].filter((p) => HEAVY.test(p))).toEqual([]);
  });

  it('reaches only the handler contract, common and its own files', () => {
    const outside = files.filter((f) => !/^src\/(worker|common|modules\/handler)\//.test(f));
    expect(outside).toEqual([]);
  });
});
