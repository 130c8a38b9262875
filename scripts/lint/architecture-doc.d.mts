// Types of scripts/lint/architecture-doc.mjs for the TypeScript test that imports it.
import type { ModuleGraph } from './module-graph.mjs';
export const DOC: string;
export function codeUses(graph?: ModuleGraph): Map<string, string[]>;
export function docUses(text: string): Array<{ module: string; uses: string[]; line: number }>;
export function usesProblems(text: string, graph?: ModuleGraph): string[];
export function treeEntries(text: string): Array<{ kind: 'folder' | 'file'; path: string; line: number }>;
export function treeProblems(text: string, files?: string[]): string[];
export function architectureProblems(): string[];
