import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APP_CONFIG, type AppConfig, ConfigError } from '../../config/index.js';
import { METRICS_CHALLENGE, scrapeAllowed } from './metrics-access.js';
import { MetricsService } from './metrics.service.js';

/**
 * /metrics on its own listener, METRICS_HOST:METRICS_PORT (docs/observability.md "Metrics"), when METRICS_PORT is
 * set: the http listener then has no /metrics, so a public ingress or a Service of the api can never expose it.
 * A bare node:http server: GET or HEAD /metrics (any query) answers the registry, with METRICS_TOKEN checked; any
 * other path is a 404, any other method a 405. It listens while the module initialises, before any role starts,
 * so a port it cannot take stops start-up before the node joins the cluster.
 */
@Injectable()
export class MetricsListener implements OnModuleInit, OnApplicationShutdown {
  private server: Server | null = null;
  private readonly log = new Logger('Metrics');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /** @throws ConfigError(METRICS_PORT) when the port cannot be listened on. */
  async onModuleInit(): Promise<void> {
    const { port, host } = this.config.metrics;
    if (port === null) return;
    const server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    }).catch((err: NodeJS.ErrnoException) => {
      throw new ConfigError('METRICS_PORT', `cannot listen on ${host}:${port}: ${err.code ?? err.message}`);
    });
    this.server = server;
    this.log.log(`/metrics served on ${host}:${this.port()} only`);
  }

  /** The port listened on (METRICS_PORT=0 picks a free one); null when /metrics shares the http listener. */
  port(): number | null {
    return this.server ? (this.server.address() as AddressInfo).port : null;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return this.plain(res, 404, 'Not Found: this listener serves /metrics only\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return this.plain(res, 405, 'Method Not Allowed\n');
    }
    if (!scrapeAllowed(this.config.metrics.token, req.headers.authorization)) {
      res.setHeader('WWW-Authenticate', METRICS_CHALLENGE);
      return this.plain(res, 401, 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
    }
    try {
      const body = await this.metrics.registry.metrics();
      res.writeHead(200, { 'Content-Type': this.metrics.registry.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      this.log.error(`collecting the metrics failed: ${(err as Error).message}`);
      this.plain(res, 500, 'Internal Server Error\n');
    }
  }

  private plain(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(text);
  }
}
