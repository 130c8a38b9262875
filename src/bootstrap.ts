import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { AddressInfo } from 'node:net';
import { AppModule, AppModuleOptions } from './app.module.js';
import { AppConfig, Role } from './config/index.js';
import { DataDirLockModule, lockDataDir } from './infra/standalone/index.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  closeRequestBodies,
  createValidationPipe,
  docsSafetyHeaders,
  documentIdempotency,
  documentNoQuery,
  SignedRequestMiddleware,
  swaggerUiOptions,
} from './modules/openapi/index.js';
import { HttpMetrics } from './modules/observability/index.js';

/**
 * Builds and initialises the application exactly as `npm start` runs it (tests use this too, so they
 * exercise the production wiring): on api nodes the HTTP metrics (HttpMetrics) before any other middleware; no
 * global body parser (on api nodes the SignedRequestMiddleware, mounted before every route, reads /api bodies only
 * after their headers were checked, and parses them only once their signature was; no other route takes a body),
 * validation pipe, Swagger UI at /docs on api nodes,
 * shutdown hooks. Standalone, it first takes DATA_DIR for this process (lockDataDir; released by the last
 * shutdown hook, DataDirLockModule). Does not listen, and does not create the standalone credentials (main.ts does,
 * after listening).
 * @throws DataDirLockedError standalone, when another live process runs on the same DATA_DIR.
 */
export async function createApp(config: AppConfig, opts: AppModuleOptions = {}): Promise<NestExpressApplication> {
  // Standalone is one process per data directory: a second one would lead, fire and run beside the first.
  const unlock = config.shape === 'standalone' ? lockDataDir(config.dataDir) : () => undefined;
  let app: NestExpressApplication;
  try {
    const imports = [...(opts.imports ?? []), DataDirLockModule.releasing(unlock)];
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoles(config, { ...opts, imports }), {
      bodyParser: false,
      bufferLogs: true,
    });
  } catch (err) {
    unlock();
    throw err;
  }
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by'); // no need to tell strangers what serves them
  if (config.roles.includes(Role.API)) {
    app.use(app.get(HttpMetrics).handle); // first: refusals before routing are requests too
    app.use(app.get(SignedRequestMiddleware).handle);
  }
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  if (config.roles.includes(Role.API)) {
    app.use('/docs', docsSafetyHeaders()); // before Swagger's routes and static assets: every /docs answer
    SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), swaggerUiOptions());
  }
  await app.init();
  return app;
}

/**
 * The "version" of the package.json above this module: dist/src/bootstrap.js and src/bootstrap.ts (under jest)
 * alike, whichever is nearer. @throws Error when none is found (a broken install).
 */
function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tickwheel' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: look in the parent
    }
    if (dirname(dir) === dir) throw new Error('package.json of tickwheel not found above ' + import.meta.url);
  }
}

/** The OpenAPI document of the running app (also written to openapi/openapi.json by `npm run openapi:sync`). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const header = (name: string, description: string) => ({
    type: 'apiKey' as const,
    in: 'header' as const,
    name,
    description,
  });
  const config = new DocumentBuilder()
    .setTitle('Tickwheel')
    .setDescription(
      'Distributed scheduled jobs and asynchronous tasks. Every /api request is signed (README ' +
        '"Signing", v2): X-Signature = v2=<hex HMAC-SHA256(secret, ' +
        'TW2\\nAPP_ID\\nMETHOD\\nPATH?QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA-256(body)))>, X-App-Id as signed ' +
        '(compared exactly), X-Timestamp in epoch ms (±300 s), X-Nonce used once. An unversioned (v1) ' +
        'signature is a 401 like every other signature failure. A body is application/json (utf-8), ' +
        'uncompressed and at most 2 MiB (415, 413); it is read only after the headers were checked and ' +
        'parsed only after the signature was. Each app has a request rate limit (README "Rate limits"): ' +
        'over it, 429 with Retry-After; the RateLimit-Limit, -Remaining, -Reset and -Policy headers ' +
        '(draft-ietf-httpapi-ratelimit-headers-06) are on every answer to a limited app. Errors are ' +
        'application/problem+json (RFC 9457). Callbacks (docs/callbacks.md): a final state is POSTed to the ' +
        "task's callbackUrl, else the job's, else the app's registration (POST /api/callbacks/register), with " +
        'X-Tickwheel-Delivery (the deliveryId, the same on every try: deduplicate on it), X-Tickwheel-Timestamp ' +
        '(epoch ms) and X-Tickwheel-Signature = v1=<hex HMAC-SHA256(app secret, "<timestamp>.<raw body>")>: ' +
        "check it in constant time and the timestamp within 5 minutes (the client's verifyCallback). 408, 429, " +
        '5xx and timeouts are retried after 5 s, 30 s, 2 min, 10 min, 30 min (Retry-After honoured on 429/503), ' +
        'then CALLBACK_FAILED; any other 4xx or a 3xx is final at once.',
    )
    .setVersion(packageVersion())
    .addSecurity(
      'X-App-Id',
      header('X-App-Id', 'Your app id, exactly as created (it is part of the signed string). In /docs: type it here.'),
    )
    .addSecurity('X-Timestamp', header('X-Timestamp', 'Epoch milliseconds. In /docs: leave empty, the page sets it.'))
    .addSecurity(
      'X-Nonce',
      header('X-Nonce', '8-128 of [A-Za-z0-9_-], once per app. In /docs: leave empty, the page sets it.'),
    )
    .addSecurity(
      'X-Signature',
      header(
        'X-Signature',
        'v2=<64 hex>: HMAC-SHA256 of the v2 canonical request, see above. In /docs: type your app SECRET here: ' +
          'the page signs each "Try it out" request with it in the browser and sends only the signature, never ' +
          'the secret (docs/api.md "Swagger UI").',
      ),
    )
    .build();
  const doc = SwaggerModule.createDocument(app, config);
  documentIdempotency(doc);
  documentNoQuery(doc); // a route without query parameters refuses any (QueryParamsInterceptor)
  closeRequestBodies(doc); // the spec says what the validation pipe enforces: no unknown field in a body
  return doc;
}

/**
 * Logs a node's JSON readiness line, `tickwheel <shape> [<roles>] listening on <url>` (docs/observability.md "Logs"),
 * at info whatever LOG_LEVEL says; returns the URL and the port (PORT=0 picks a free one).
 */
export function announceListening(app: INestApplication, config: AppConfig): { url: string; port: number } {
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const url = `http://${config.http.host === '0.0.0.0' ? 'localhost' : config.http.host}:${port}`;
  const api = config.roles.includes(Role.API);
  const banner = PinoLogger.root.child({ context: 'Tickwheel' }, { level: 'info' });
  banner.info(
    { url, port, shape: config.shape, roles: config.roles, swagger: api ? `${url}/docs` : null },
    `tickwheel ${config.shape} [${config.roles.join(',')}] listening on ${url}`,
  );
  return { url, port };
}
