import { readFileSync } from 'node:fs';
import { DOC, treeProblems, usesProblems } from '../../scripts/lint/architecture-doc.mjs';
import { graphOf } from '../utils/module-graph.js';

const fence = '```';
const tree = (...lines: string[]) => ['### The module tree', '', fence, '# legend', ...lines, fence].join('\n');

/**
 * docs/architecture.md describes the modules as built: its table's "uses" column is what each module's non-spec
 * files import, and its module tree names every non-spec file of src/ and nothing else. Each failure is one line
 * naming the doc line and row, or the file; `node scripts/lint/architecture-doc.mjs --print` prints the column as
 * the code has it and the files the tree lacks.
 */
describe(`${DOC} "Modules"`, () => {
  const doc = readFileSync(DOC, 'utf8');

  it('should list under "uses" exactly the modules each module imports, one row per module', () => {
    expect(usesProblems(doc)).toEqual([]);
  });

  it('should name every non-spec file of src/ in the module tree, and only files and folders that exist', () => {
    expect(treeProblems(doc)).toEqual([]);
  });

  it('should name the row whose "uses" lacks an import or names a module not imported, and a module without a row', () => {
    const table = [
      '| module | owns | uses |',
      '|---|---|---|',
      '| `a` | the a things | b (a note naming c), d |',
      '| `b` | the b things | — |',
      '| `z` | nothing | a |',
    ].join('\n');
    expect(usesProblems(table, graphOf('a>b', 'a>c', 'c>b', 'd>b'))).toEqual([
      `${DOC}:3 row \`a\`: "uses" lacks c (src/modules/a/x.ts → src/modules/c/index.ts)`,
      `${DOC}:3 row \`a\`: "uses" names d, not imported`,
      `${DOC}:5 row \`z\` names no module of src/ (modules: a, b, c, d)`,
      `${DOC} modules table: no row for \`c\` (uses b)`,
      `${DOC} modules table: no row for \`d\` (uses b)`,
    ]);
  });

  it('should name a file the tree lacks, an entry or folder that names nothing, and match <part> patterns', () => {
    const text = tree(
      'src/',
      '  common/',
      '    ids.ts  gone.ts                        ids; a file removed since',
      '    clock/                                 clock.ts',
      '    nowhere/                               a folder removed since',
      '  modules/coordination/redis/              redis-<concern>.ts, lua/<name>-<numKeys>.lua,',
      '                                           lua/nope-<n>.lua',
    );
    const files = [
      'src/common/ids.ts',
      'src/common/index.ts',
      'src/common/clock/clock.ts',
      'src/common/clock/repeat.ts',
      'src/modules/coordination/redis/redis-lock.ts',
      'src/modules/coordination/redis/lua/takeDue-1.lua',
    ];
    expect(treeProblems(text, files)).toEqual([
      `${DOC}:7 tree names src/common/gone.ts, which does not exist`,
      `${DOC}:9 tree names folder src/common/nowhere/, which does not exist`,
      `${DOC}:11 tree names src/modules/coordination/redis/lua/nope-<n>.lua, which matches no file`,
      `src/common/clock/repeat.ts: not in the tree of ${DOC}; name it under src/common/clock/`,
    ]);
  });
});
