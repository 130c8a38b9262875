import type { ModuleGraph } from '../../scripts/lint/module-graph.mjs';

/** A made-up module graph (scripts/lint/module-graph.mjs) from `from>to` pairs, each edge made by one file. */
export function graphOf(...edges: string[]): ModuleGraph {
  const graph: ModuleGraph = new Map();
  for (const edge of edges) {
    const [from, to] = edge.split('>');
    for (const m of [from, to]) if (!graph.has(m)) graph.set(m, new Map());
    graph.get(from)!.set(to, [`src/modules/${from}/x.ts → src/modules/${to}/index.ts`]);
  }
  return graph;
}
