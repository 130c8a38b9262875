// Types of scripts/lint/module-graph.mjs for the TypeScript tests that import it.
export type ModuleGraph = Map<string, Map<string, string[]>>;
export const ROOT: string;
export function isSpec(file: string): boolean;
export function filesUnder(dir?: string, ext?: string): string[];
export function moduleOf(file: string): string | null;
export function importsOf(file: string): string[];
export function importsIn(file: string, text: string): string[];
export function moduleGraph(options?: { specs?: boolean }): ModuleGraph;
export function cyclesOf(graph: ModuleGraph): string[][];
export function edgesWithin(graph: ModuleGraph, set: string[]): string[];
