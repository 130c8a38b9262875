import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants.js';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ValidationError } from '../../../common/index.js';
import { AuditController } from '../controllers/audit.controller.js';
import { CallbacksController } from '../controllers/callbacks.controller.js';
import { ClientsController } from '../controllers/clients.controller.js';
import { JobsController } from '../controllers/jobs.controller.js';
import { NodesController } from '../controllers/nodes.controller.js';
import { TasksController } from '../controllers/tasks.controller.js';
import {
  documentIdempotency,
  KEYED_ROUTES,
  parseIdempotencyKey,
  routeOf,
  UNKEYED_ROUTES,
} from './idempotency-routes.js';

/** Mutating routes that only read (documented POSTs that store nothing): none of them takes a key. */
const READS_BY_POST = new Set(['POST /api/schedules/preview']);

/** Every route of the /api controllers as `METHOD /path/{param}`. */
function apiRoutes(): string[] {
  const controllers = [AuditController, CallbacksController, ClientsController, JobsController, NodesController];
  const routes: string[] = [];
  for (const c of [...controllers, TasksController]) {
    for (const name of Object.getOwnPropertyNames(c.prototype)) {
      const handler = (c.prototype as unknown as Record<string, object>)[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (name !== 'constructor' && method !== undefined) routes.push(routeOf(RequestMethod[method], c, handler));
    }
  }
  return routes;
}

describe('Idempotency-Key routes', () => {
  it('should name only real routes, and classify every mutating /api route as keyed or not', () => {
    const routes = apiRoutes();
    expect(routes).toContain('POST /api/jobs/{id}/trigger');
    expect(routes).toContain('POST /api/jobs');
    for (const r of [...KEYED_ROUTES, ...UNKEYED_ROUTES.keys()]) expect(routes).toContain(r);
    const mutating = routes.filter((r) => !r.startsWith('GET ') && !READS_BY_POST.has(r));
    expect(mutating.filter((r) => !KEYED_ROUTES.has(r) && !UNKEYED_ROUTES.has(r))).toEqual([]);
  });

  it('should take 1-255 printable ASCII characters, bare or quoted, no edge space; the rest is refused', () => {
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('"abc def"')).toBe('abc def');
    expect(parseIdempotencyKey('x'.repeat(255))).toHaveLength(255);
    expect(parseIdempotencyKey(['only-one'])).toBe('only-one');
    const twoHeaders = ['a', 'b']; // two Idempotency-Key headers: not the key 'a, b'
    const tooLong = 'x'.repeat(256);
    // a space first or last: MariaDB's PAD SPACE collation made `K ` the key `K`
    const edges = ['"K "', '" K"', 'K ', ' K', '" "'];
    const malformed = ['', tooLong, 'caf\u00e9', 'a\u0000b', '"unterminated', '""', `"${tooLong}"`, twoHeaders];
    for (const bad of [...malformed, ...edges]) {
      let err: unknown;
      try {
        parseIdempotencyKey(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe('Idempotency-Key');
    }
  });

  it('should document the header, the replay header and the 400/409/429 problems on keyed operations only', () => {
    const ok = () => ({ '200': { description: 'ok' } });
    const doc = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/api/jobs/{id}/pause': { post: { responses: ok() }, get: { responses: ok() } },
        '/api/tasks': { post: { responses: { '202': { description: 'ok' }, '409': { description: 'reused' } } } },
        '/api/jobs/{id}': { patch: { responses: { ...ok(), '409': { description: 'Version conflict.' } } } },
      },
    } as unknown as OpenAPIObject;
    documentIdempotency(doc);
    type Op = { parameters?: Array<{ name: string }>; responses: Record<string, Record<string, unknown>> };
    const op = (path: string, method: string) => (doc.paths[path] as unknown as Record<string, Op>)[method];
    const pause = op('/api/jobs/{id}/pause', 'post');
    expect(pause.parameters?.map((p) => p.name)).toEqual(['Idempotency-Key']);
    expect(Object.keys(pause.responses['200'].headers as object)).toEqual(['Idempotency-Replayed']);
    expect(Object.keys(pause.responses).sort()).toEqual(['200', '400', '409', '429']);
    expect(pause.responses['429'].description).toContain('TOO_MANY_IDEMPOTENCY_KEYS');
    expect(pause.responses['409'].content).toHaveProperty(['application/problem+json']);
    expect(op('/api/jobs/{id}/pause', 'get').parameters).toBeUndefined();
    expect(op('/api/tasks', 'post').parameters).toBeUndefined();
    expect(op('/api/tasks', 'post').responses['409'].description).toBe('reused');
    expect(op('/api/jobs/{id}', 'patch').responses['409'].description).toMatch(/^Version conflict\. Or: /);
  });
});
