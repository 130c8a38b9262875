import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service.js';

/** The `route` of a request no route of the app matches (a 404, a probe of a random path, a static file). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The `status` of a request whose client went away before any answer was sent (as nginx logs it). */
export const CLIENT_CLOSED = '499';
/** Routes left out: every process serves them, and probes and scrapes would outweigh a quiet api's traffic. */
const EXCLUDED: ReadonlySet<string> = new Set(['/metrics', '/health/live', '/health/ready']);

/** What the lookup reads of Express's router (router 2): its layers, each a route's or a middleware's. */
interface RouterLayer {
  route?: { path: unknown; methods?: Record<string, boolean>; _handlesMethod?(method: string): boolean };
  match?(path: string): unknown;
}

/**
 * Records `tickwheel_http_requests_total{route,method,status}` and `tickwheel_http_request_duration_seconds{route,
 * method}` for each request of the api role (docs/observability.md "HTTP metrics"), mounted before every other
 * middleware so that refusals before routing (a bad signature, a body too large, a rate limit) count too. `route` is
 * the template of the app's route that matches the request (`/api/tasks/:requestId`), never its URL, else
 * {@link UNMATCHED_ROUTE}: the label takes only the values of the app's route table, whatever the URLs sent.
 */
@Injectable()
export class HttpMetrics {
  /** The app's route layers, read once at the first request that needs them (routes are fixed after init). */
  private routes: RouterLayer[] | null = null;

  constructor(private readonly metrics: MetricsService) {}

  /** The Express middleware: times the request and records it once its connection is done with it. */
  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    const start = performance.now();
    res.once('close', () => this.record(req, res, (performance.now() - start) / 1000));
    next();
  };

  private record(req: Request, res: Response, seconds: number): void {
    const route = this.routeOf(req);
    if (EXCLUDED.has(route)) return;
    const method = req.method;
    const status = res.headersSent ? String(res.statusCode) : CLIENT_CLOSED;
    this.metrics.httpRequests.inc({ route, method, status });
    this.metrics.httpRequestSeconds.observe({ route, method }, seconds);
  }

  /** The template of the route that ran, else of the first route the path and method would match, else unmatched. */
  private routeOf(req: Request): string {
    const ran = (req as { route?: { path?: unknown } }).route?.path;
    if (ran !== undefined) return String(ran);
    const method = req.method.toLowerCase();
    for (const layer of this.routeLayers(req)) {
      const route = layer.route as NonNullable<RouterLayer['route']>;
      const handles = route._handlesMethod
        ? route._handlesMethod(method)
        : Boolean(route.methods?._all || route.methods?.[method] || (method === 'head' && route.methods?.get));
      if (handles && layer.match?.(req.path)) return String(route.path);
    }
    return UNMATCHED_ROUTE;
  }

  private routeLayers(req: Request): RouterLayer[] {
    if (this.routes === null) {
      const stack = (req.app as unknown as { router?: { stack?: RouterLayer[] } }).router?.stack ?? [];
      this.routes = stack.filter((l) => l.route !== undefined && typeof l.match === 'function');
    }
    return this.routes;
  }
}
