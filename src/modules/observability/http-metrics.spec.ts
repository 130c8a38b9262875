import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { HttpMetrics } from './http-metrics.js';
import { MetricsService } from './metrics.service.js';

/** A route layer of Express's router as the lookup reads it: `path` for `methods`, matched by a regular expression. */
function layer(path: string, methods: string[], pattern: RegExp) {
  return {
    route: { path, methods: Object.fromEntries(methods.map((m) => [m, true])) },
    match: (p: string) => pattern.test(p),
  };
}

const STACK = [
  { match: () => true }, // a middleware's layer: no route
  layer('/api/tasks', ['post'], /^\/api\/tasks\/?$/),
  layer('/api/tasks/:requestId', ['get'], /^\/api\/tasks\/[^/]+\/?$/),
  layer('/metrics', ['get'], /^\/metrics\/?$/),
];

/** The api's request metrics over requests and answers built by hand (the booted app's are in test/integration). */
describe(HttpMetrics.name, () => {
  let metrics: MetricsService;
  let sut: HttpMetrics;

  beforeEach(() => {
    metrics = new MetricsService();
    sut = new HttpMetrics(metrics);
  });

  /** Runs one request through the middleware: `ran` is the route Express dispatched to, if any. */
  function request(method: string, path: string, status: number | null, ran?: string): void {
    const req = { method, path, app: { router: { stack: STACK } }, ...(ran ? { route: { path: ran } } : {}) };
    const res = Object.assign(new EventEmitter(), { statusCode: status ?? 200, headersSent: status !== null });
    let nexted = false;
    sut.handle(req as unknown as Request, res as unknown as Response, (() => (nexted = true)) as NextFunction);
    expect(nexted).toBe(true);
    res.emit('close');
    res.emit('close'); // once only
  }

  const counted = async () =>
    (await metrics.httpRequests.get()).values.map((v) => `${v.labels.method} ${v.labels.route} ${v.labels.status}`);
  const timed = async () =>
    (await metrics.httpRequestSeconds.get()).values
      .filter((v) => v.metricName === 'tickwheel_http_request_duration_seconds_count')
      .map((v) => `${v.labels.method} ${v.labels.route} ${v.value}`);

  it('should label a request with the template of the route that ran, once, counted and timed', async () => {
    request('GET', '/api/tasks/a-1', 200, '/api/tasks/:requestId');
    request('GET', '/api/tasks/b-2', 404, '/api/tasks/:requestId');
    expect(await counted()).toEqual(['GET /api/tasks/:requestId 200', 'GET /api/tasks/:requestId 404']);
    expect(await timed()).toEqual(['GET /api/tasks/:requestId 2']);
  });

  it('should label a request refused before routing with the route its path and method match', async () => {
    request('POST', '/api/tasks', 401);
    request('POST', '/api/tasks/', 413);
    request('GET', '/api/tasks/x', 429);
    expect(await counted()).toEqual(['POST /api/tasks 401', 'POST /api/tasks 413', 'GET /api/tasks/:requestId 429']);
  });

  it('should label any path or method no route takes unmatched, whatever the URL', async () => {
    for (let i = 0; i < 100; i++) request('GET', `/probe/${i}/wp-login.php`, 404);
    request('DELETE', '/api/tasks', 404);
    expect(await counted()).toEqual(['GET unmatched 404', 'DELETE unmatched 404']);
  });

  it('should leave /metrics and the health routes out', async () => {
    request('GET', '/metrics', 200, '/metrics');
    request('GET', '/health/live', 200, '/health/live');
    request('GET', '/health/ready', 503, '/health/ready');
    request('GET', '/metrics', 429); // by the route table too
    expect(await counted()).toEqual([]);
  });

  it('should count a request whose client went away before any answer as 499', async () => {
    request('POST', '/api/tasks', null);
    expect(await counted()).toEqual(['POST /api/tasks 499']);
  });
});
