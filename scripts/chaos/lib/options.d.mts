// Types of options.mjs for the TypeScript tests that import it (test/fault): the seeded PRNG only.
export function prng(seed: number): () => number;
