import { readFileSync } from 'node:fs';

/**
 * The committed spec (openapi/openapi.json, which test/e2e/openapi-spec.e2e-spec.ts keeps equal to the code) is
 * complete: a route added or changed without its documentation fails here, whoever adds it.
 */
interface Operation {
  security?: Array<Record<string, string[]>>;
  'x-any-signed-caller'?: boolean;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Schema {
  properties?: Record<string, { description?: string }>;
}
interface Doc {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
}

const doc = JSON.parse(readFileSync('openapi/openapi.json', 'utf8')) as Doc;
const SIGNING = ['X-App-Id', 'X-Nonce', 'X-Signature', 'X-Timestamp'];
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.has(method))
    .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, op })),
);
const api = operations.filter((o) => o.path.startsWith('/api/'));

describe('openapi/openapi.json completeness', () => {
  it('should have the API routes, health and /metrics', () => {
    expect(api.length).toBeGreaterThan(20);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health/live', '/health/ready', '/metrics']));
  });

  it("should carry package.json's version", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(doc.info.version).toBe(pkg.version);
  });

  it('should declare the four signing headers as apiKey schemes', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(SIGNING);
  });

  it('should need all four signing headers together (one requirement) on every /api operation', () => {
    const wrong = api
      .filter((o) => {
        const sec = o.op.security ?? [];
        return sec.length !== 1 || JSON.stringify(Object.keys(sec[0]).sort()) !== JSON.stringify(SIGNING);
      })
      .map((o) => `${o.name}: ${JSON.stringify(o.op.security)}`);
    expect(wrong).toEqual([]);
  });

  it('should ask no signature of health and metrics', () => {
    const open = operations.filter((o) => !o.path.startsWith('/api/'));
    expect(open.filter((o) => (o.op.security ?? []).length > 0).map((o) => o.name)).toEqual([]);
  });

  it('should document a 2xx of every operation, with a body schema unless it is a 204', () => {
    const wrong = operations.flatMap((o) => {
      const ok = Object.entries(o.op.responses).filter(([status]) => /^2/.test(status));
      if (ok.length === 0) return [`${o.name}: no 2xx`];
      return ok
        .filter(([status, r]) => status !== '204' && !Object.values(r.content ?? {}).some((c) => c.schema))
        .map(([status]) => `${o.name} ${status}: no schema`);
    });
    expect(wrong).toEqual([]);
  });

  it('should give every /api error answer the problem+json schema, and every other error a schema', () => {
    const wrong = operations.flatMap((o) =>
      Object.entries(o.op.responses)
        .filter(([status]) => /^[45]/.test(status))
        .filter(([, r]) =>
          o.path.startsWith('/api/')
            ? (r.content?.['application/problem+json']?.schema as { $ref?: string } | undefined)?.$ref !==
              '#/components/schemas/ProblemDto'
            : !Object.values(r.content ?? {}).some((c) => c.schema),
        )
        .map(([status]) => `${o.name} ${status}`),
    );
    expect(wrong).toEqual([]);
  });

  it('should document the answers every signed route may give (401, 403, 413, 415, 429, 500)', () => {
    // A route any signed caller may use (x-any-signed-caller: GET /api/whoami) has no scope to refuse: no 403.
    const answers = (o: (typeof api)[number]) =>
      ['401', '403', '413', '415', '429', '500'].filter((s) => s !== '403' || !o.op['x-any-signed-caller']);
    const wrong = api.flatMap((o) =>
      answers(o)
        .filter((s) => !(s in o.op.responses))
        .map((s) => `${o.name} ${s}`),
    );
    expect(wrong).toEqual([]);
    expect(api.filter((o) => o.op['x-any-signed-caller']).map((o) => o.name)).toEqual(['GET /api/whoami']);
  });

  it('should describe every property of every component schema', () => {
    const wrong = Object.entries(doc.components.schemas).flatMap(([name, schema]) =>
      Object.entries(schema.properties ?? {})
        .filter(([, p]) => typeof p.description !== 'string' || p.description.trim() === '')
        .map(([prop]) => `${name}.${prop}`),
    );
    expect(wrong).toEqual([]);
  });
});
