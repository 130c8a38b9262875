import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { closeRequestBodies } from './closed-bodies.js';

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: unknown;
};

/**
 * Request-body schemas (component names, or `<Schema>.<property>` for an object property) that may stay open, each
 * with the reason the server accepts any key there. Anything else a body reaches must be closed.
 */
const OPEN_BY_DESIGN: Record<string, string> = {
  // Free objects: IsObject and a byte bound, any keys; a handler reads them.
  'SubmitTaskDto.params': "the handler's parameters, any JSON object",
  'SubmitTaskDto.executeParams': "the same, in the design source's shape",
  'CreateJobDto.params': "the handler's parameters, any JSON object",
  'UpdateJobDto.params': "the handler's parameters, any JSON object",
  'TriggerJobDto.params': "this run's handler parameters, any JSON object",
  'CreateJobDto.shardParams': "each shard's handler parameters, any JSON object",
  'UpdateJobDto.shardParams': "each shard's handler parameters, any JSON object",
  // An app worker's handler output (docs/workers.md): any JSON, bounded in bytes like an executor's.
  'WorkerCheckpointDto.state': "a handler's checkpoint, any JSON (CHECKPOINT_MAX_BYTES)",
  'WorkerFinishDto.result': "a handler's result, any JSON (bounded like an executor's result)",
  'WorkerFinishItemDto.result': 'the same, in a batch of finishes',
};

const spec = JSON.parse(readFileSync('openapi/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

/** Every object schema a request body reaches (through $ref), named `<Component>` or `<Component>.<property>`. */
function bodyObjects(): Map<string, Schema> {
  const found = new Map<string, Schema>();
  const visit = (s: Schema | undefined, name: string): void => {
    if (!s) return;
    if (s.$ref) {
      const target = refName(s.$ref);
      if (found.has(target)) return;
      return visit(spec.components.schemas[target], target);
    }
    if (s.type === 'object' || s.properties) found.set(name, s);
    for (const [p, child] of Object.entries(s.properties ?? {})) visit(child, `${name}.${p}`);
    visit(s.items, name);
    for (const member of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(member, name);
  };
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const media of Object.values(op.requestBody?.content ?? {})) visit(media.schema, `${method} ${path}`);
    }
  }
  return found;
}

describe('closed request bodies (openapi/openapi.json)', () => {
  it('should close every request-body object but the free ones the server accepts any key in', () => {
    const objects = bodyObjects();
    expect(objects.size).toBeGreaterThan(Object.keys(OPEN_BY_DESIGN).length);
    const open = [...objects].filter(([, s]) => s.additionalProperties !== false).map(([name]) => name);
    expect(open.sort()).toEqual(Object.keys(OPEN_BY_DESIGN).sort());
  });

  it('should close only what the server closes: each nested DTO is validated with @ValidateNested', async () => {
    // The DTO classes by name, from every *.dto.ts under src (a new module's DTOs included).
    const classes = new Map<string, new () => object>();
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.dto.ts'));
    for (const file of files) {
      const mod = (await import(pathToFileURL(join(process.cwd(), 'src', file)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (typeof value === 'function') classes.set(name, value as never);
      }
    }
    const nested: string[] = [];
    for (const [name, schema] of Object.entries(spec.components.schemas)) {
      if (schema.additionalProperties !== false) continue;
      for (const [property, s] of Object.entries(schema.properties ?? {})) {
        if (!(s.$ref ?? s.items?.$ref ?? [...(s.allOf ?? []), ...(s.oneOf ?? [])].some((m) => m.$ref))) continue;
        const dto = classes.get(name);
        expect([name, dto !== undefined]).toEqual([name, true]);
        const metas = getMetadataStorage().getTargetValidationMetadatas(dto!, '', false, false);
        const validated = metas.some(
          (m) => m.propertyName === property && m.type === ValidationTypes.NESTED_VALIDATION,
        );
        expect([`${name}.${property}`, validated]).toEqual([`${name}.${property}`, true]);
        nested.push(`${name}.${property}`);
      }
    }
    expect(nested).toContain('SubmitTaskBatchDto.tasks'); // the check ran on the one nested DTO of today's spec
  });
});

describe('closeRequestBodies', () => {
  const answer = { $ref: '#/components/schemas/Answer' };
  const doc = (): OpenAPIObject =>
    ({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Outer' } } } },
            responses: { '201': { description: '', content: { 'application/json': { schema: answer } } } },
          },
        },
      },
      components: {
        schemas: {
          Outer: {
            type: 'object',
            properties: {
              items: { type: 'array', items: { $ref: '#/components/schemas/Inner' } },
              one: { allOf: [{ $ref: '#/components/schemas/Other' }] },
              params: { type: 'object' },
            },
          },
          Inner: { type: 'object', properties: { a: {}, back: { $ref: '#/components/schemas/Outer' } } },
          Other: { type: 'object', properties: { b: { type: 'string' } } },
          Answer: { type: 'object', properties: { c: { type: 'string' } } },
        },
      },
    }) as unknown as OpenAPIObject;

  it('should close the body and the DTOs it reaches, leave free objects and responses open', () => {
    const d = doc();
    closeRequestBodies(d);
    const s = d.components!.schemas! as Record<string, Schema>;
    expect(s.Outer.additionalProperties).toBe(false);
    expect(s.Inner.additionalProperties).toBe(false);
    expect(s.Other.additionalProperties).toBe(false);
    expect(s.Outer.properties!.params.additionalProperties).toBeUndefined();
    expect(s.Answer.additionalProperties).toBeUndefined();
  });
});
