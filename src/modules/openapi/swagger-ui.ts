import type { SwaggerCustomOptions } from '@nestjs/swagger';

/** Where the Authorize dialog takes the app id and the secret: the schemes of the same names in the spec. */
const APP_ID_SCHEME = 'X-App-Id';
const SECRET_SCHEME = 'X-Signature';

/**
 * Browser code of /docs (an inline script, run before Swagger UI starts): `twSignRequest(req)` signs a "Try it
 * out" request with Web Crypto as src/common/signing.ts does (v2: HMAC-SHA256 of
 * TW2\nAPP_ID\nMETHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nhex SHA-256(body)). The app id and the secret are what the
 * user typed in the Authorize dialog (its X-App-Id and X-Signature fields); Swagger UI would send the typed
 * values as headers, so every header of the four is first removed, whatever happens next: the secret never
 * leaves the page, and only a request to the page's own origin is signed (elsewhere a signature could be replayed
 * here). Without Web Crypto (crypto.subtle needs https or localhost) the request goes unsigned (a 401).
 */
const SIGNING_SCRIPT = `
(function () {
  var HEADERS = ['X-App-Id', 'X-Timestamp', 'X-Nonce', 'X-Signature'];
  var enc = new TextEncoder();
  function hex(buf) {
    return Array.from(new Uint8Array(buf), function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  }
  function typed(name) {
    var auth = window.ui && window.ui.authSelectors.authorized();
    var entry = auth && auth.get(name);
    var value = entry && entry.get('value');
    return typeof value === 'string' && value !== '' ? value : null;
  }
  window.twSignRequest = async function (req) {
    var headers = req.headers || (req.headers = {});
    Object.keys(headers).forEach(function (k) {
      if (HEADERS.some(function (h) { return h.toLowerCase() === k.toLowerCase(); })) delete headers[k];
    });
    var url = new URL(req.url, window.location.href);
    var appId = typed(${JSON.stringify(APP_ID_SCHEME)});
    var secret = typed(${JSON.stringify(SECRET_SCHEME)});
    var here = url.origin === window.location.origin; // a signature is a credential: only for this server
    if (!here || !url.pathname.startsWith('/api/') || !appId || !secret) return req;
    if (!window.crypto || !window.crypto.subtle) {
      console.error('Tickwheel: cannot sign: Web Crypto needs https or http://localhost; the request goes unsigned');
      return req;
    }
    var body = typeof req.body === 'string' ? req.body : req.body == null ? '' : JSON.stringify(req.body);
    if (typeof req.body !== 'string' && req.body != null) req.body = body;
    var timestamp = String(Date.now());
    var nonce = crypto.randomUUID();
    var bodyHash = hex(await crypto.subtle.digest('SHA-256', enc.encode(body)));
    var canonical = ['TW2', appId, String(req.method || 'GET').toUpperCase(), url.pathname + url.search,
      timestamp, nonce, bodyHash].join('\\n');
    var key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false,
      ['sign']);
    headers['X-App-Id'] = appId;
    headers['X-Timestamp'] = timestamp;
    headers['X-Nonce'] = nonce;
    headers['X-Signature'] = 'v2=' + hex(await crypto.subtle.sign('HMAC', key, enc.encode(canonical)));
    return req;
  };
})();
`;

/** What the Swagger UI signing script adds to the page's global object. */
interface SigningPage {
  twSignRequest(req: object): Promise<object>;
}

/**
 * SwaggerModule.setup options of /docs: the spec also at /docs/openapi.json, and "Try it out" requests signed in
 * the browser by {@link SIGNING_SCRIPT} through Swagger UI's requestInterceptor. Authorization is not persisted
 * (persistAuthorization off): the secret lives only in the open page's memory.
 */
export function swaggerUiOptions(): SwaggerCustomOptions {
  return {
    jsonDocumentUrl: 'docs/openapi.json',
    customSiteTitle: 'Tickwheel API',
    customJsStr: SIGNING_SCRIPT,
    swaggerOptions: {
      persistAuthorization: false,
      // No badge from validator.swagger.io: it would send the spec's URL to a third party (and the CSP refuses it).
      validatorUrl: null,
      // No top bar: its logo is an SVG with a <style> element the CSP would refuse, and its box loads any spec URL.
      layout: 'BaseLayout',
      // Serialised into the page with toString(): it may use nothing but the page's globals.
      requestInterceptor: (req: object) => (globalThis as unknown as SigningPage).twSignRequest(req),
    },
  };
}
