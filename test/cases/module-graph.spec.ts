import { cyclesOf, edgesWithin, importsIn, moduleGraph } from '../../scripts/lint/module-graph.mjs';
import { graphOf } from '../utils/module-graph.js';

/**
 * No two modules of src/ import each other, directly or around a loop, counting every import and export
 * statement of the non-spec files, type-only ones included (specs may wire any modules for a test). A module is a
 * unit of scripts/lint/module-boundaries.mjs (src/modules/<m>, src/infra/<m>, src/common, src/config).
 */
describe('the module graph of src/', () => {
  it('should have no cycle between modules', () => {
    const graph = moduleGraph();
    const cycles = cyclesOf(graph).map((set) => [`${set.join(', ')} import each other:`, ...edgesWithin(graph, set)]);
    expect(cycles).toEqual([]);
  });

  it('should see the imports between modules (dispatch imports execution)', () => {
    expect(moduleGraph().get('dispatch')?.has('execution')).toBe(true);
  });

  it('should read type-only imports, re-exports and import(), and no import in a comment or a string', () => {
    const text = [
      "import type { A } from '../a/index.js';",
      "import { type B, C } from '../../common/index.js';",
      "export { D } from './d.js';",
      "export * from '../e/index.js';",
      "const f = await import('../f/index.js');",
      "// import { G } from '../g/index.js';",
      'const h = "import { H } from \'../h/index.js\'";',
      "import { Injectable } from '@nestjs/common';",
    ].join('\n');
    expect(importsIn('src/modules/x/y.ts', text)).toEqual([
      'src/modules/a/index.ts',
      'src/common/index.ts',
      'src/modules/x/d.ts',
      'src/modules/e/index.ts',
      'src/modules/f/index.ts',
    ]);
  });

  it('should find a loop through three modules and each pair importing each other, and leave a chain alone', () => {
    const graph = graphOf('a>b', 'b>c', 'c>a', 'd>e', 'e>d', 'f>g', 'g>h', 'a>f');
    expect(cyclesOf(graph)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    expect(edgesWithin(graph, ['d', 'e'])).toEqual([
      'd → e: src/modules/d/x.ts → src/modules/e/index.ts',
      'e → d: src/modules/e/x.ts → src/modules/d/index.ts',
    ]);
  });
});
