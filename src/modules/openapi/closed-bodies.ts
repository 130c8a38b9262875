import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/**
 * Marks `additionalProperties: false` (in place) on every component schema a request body reaches through `$ref`:
 * the body's own DTO and, transitively, the DTOs of its properties, array items and allOf/anyOf/oneOf members (the
 * tasks of a batch). That is what the server enforces: the global validation pipe (whitelist,
 * forbidNonWhitelisted) refuses a field no decorator declares, a body's and, through @ValidateNested, a nested
 * DTO's (a property whose swagger type is a DTO class is one; closed-bodies.spec.ts checks it), and
 * the fast path (fast-body.ts) sends any unknown key to that pipe. Inline schemas stay as they are: a free object
 * (`params`, an item of `shardParams`: IsObject, any keys) has no `$ref` and stays open. Response schemas are left
 * alone unless a request body shares them. Called by buildOpenApiDocument, so a new DTO's body is closed as soon
 * as a route takes it (openapi/openapi.json, then the typed client's types, by `npm run openapi:sync`).
 */
export function closeRequestBodies(doc: OpenAPIObject): void {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Schema>;
  const closed = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const ref = (node as Schema).$ref;
    if (typeof ref === 'string') {
      const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
      const target = name === undefined ? undefined : schemas[name];
      if (name === undefined || !target || closed.has(name)) return;
      closed.add(name);
      if (target.type === 'object' || target.properties) target.additionalProperties = false;
      return visit(target);
    }
    for (const key of ['properties', 'items', 'allOf', 'anyOf', 'oneOf'] as const) {
      const child = (node as Schema)[key];
      if (key === 'properties' && child && typeof child === 'object') Object.values(child).forEach(visit);
      else visit(child);
    }
  };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item as Record<string, { requestBody?: { content?: Record<string, Schema> } }>)) {
      for (const media of Object.values(op?.requestBody?.content ?? {})) visit(media.schema);
    }
  }
}
