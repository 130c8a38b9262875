// Types of options.mjs for the TypeScript tests that import it (test/fault).
export function prng(seed: number): () => number;
export function readOptions(argv: string[]): Record<string, unknown>;
