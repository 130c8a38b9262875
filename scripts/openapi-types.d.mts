// Types of scripts/openapi-types.mjs for the TypeScript test that imports it.
export const SPEC_FILE: string;
export const TYPES_FILE: string;
/** The text of src/client/openapi-types.ts for an OpenAPI document given as JSON text. */
export function renderClientTypes(specJson: string): Promise<string>;
