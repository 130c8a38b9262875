import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

/** One request a {@link TraceReceiver} took: path, headers and the body text. */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A span as the OTLP/HTTP JSON export carries it (ids hex). */
export interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  service: string;
  status?: { code?: number; message?: string };
}

/**
 * A loopback HTTP server that answers 200 to everything and keeps each request: the target of `http` tasks,
 * callbacks, and an OTLP/HTTP collector (`POST /v1/traces`, JSON) whose spans {@link spans} lists.
 */
export interface TraceReceiver {
  url: string;
  requests: ReceivedRequest[];
  spans(): ExportedSpan[];
  close(): Promise<void>;
}

interface OtlpJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<Omit<ExportedSpan, 'service'>> }>;
  }>;
}

/** Starts a {@link TraceReceiver} on 127.0.0.1 (free port). */
export async function startTraceReceiver(): Promise<TraceReceiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const spans = () =>
    requests
      .filter((r) => r.path === '/v1/traces')
      .flatMap((r) =>
        ((JSON.parse(r.body) as OtlpJson).resourceSpans ?? []).flatMap((rs) => {
          const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          return (rs.scopeSpans ?? []).flatMap((ss) => (ss.spans ?? []).map((s) => ({ ...s, service })));
        }),
      );
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A version-00 `traceparent`'s fields (the tests' own strict reading), or null. */
export function parseTraceparent(header: unknown): { traceId: string; spanId: string; flags: string } | null {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(typeof header === 'string' ? header : '');
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return null;
  return { traceId: m[1], spanId: m[2], flags: m[3] };
}
