/**
 * The console's API client: openapi-fetch typed by the spec's types (src/client/openapi-types.ts, generated from
 * openapi/openapi.json), every request signed in the page (signing.ts) and sent to this page's own origin only.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../src/client/openapi-types.js';
import { importSigningKey, signRequest, type SigningKey } from './signing.js';

export type Schemas = components['schemas'];
export type Api = Client<paths>;

/** An error answer (problem+json, RFC 9457) as the console shows it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { title?: string; detail?: string; field?: string; code?: string },
  ) {
    super(ApiError.describe(status, problem));
    this.name = 'ApiError';
  }

  static describe(status: number, p: ApiError['problem']): string {
    if (status === 401) return 'Refused: wrong app id or secret (or this app is disabled).';
    const where = p.field ? ` (field ${p.field})` : '';
    return `${status} ${p.title ?? 'error'}${p.detail ? `: ${p.detail}` : ''}${where}`;
  }
}

/** Who is signed in: the key signing each request and what GET /api/whoami said about the app. */
export interface Session {
  api: Api;
  appId: string;
  admin: boolean;
  scopes: string[];
  namespace: string;
}

/** A client for this origin whose every request is signed with `signing`. */
export function apiFor(signing: SigningKey): Api {
  const api = createClient<paths>({ baseUrl: location.origin });
  api.use({
    async onRequest({ request }) {
      // A signature is a credential: it is only ever made for this origin's /api routes.
      const url = new URL(request.url);
      if (url.origin !== location.origin || !url.pathname.startsWith('/api/')) throw new Error('not this server');
      return signRequest(request, signing);
    },
  });
  return api;
}

/**
 * Signs in: imports the secret as a signing key and asks GET /api/whoami who that is. The secret string is not kept.
 * @throws ApiError (401: wrong id or secret) or Error (no Web Crypto, network).
 */
export async function signIn(appId: string, secret: string): Promise<Session> {
  const api = apiFor(await importSigningKey(appId, secret));
  const me = await must(api.GET('/api/whoami'));
  return { api, appId: me.appId, admin: me.admin, scopes: me.scopes, namespace: me.namespace };
}

/** The data of an answer, or a thrown ApiError. */
export async function must<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  const { data, error, response } = await call;
  if (response.ok) return data as NonNullable<T>;
  throw new ApiError(response.status, (error ?? {}) as ApiError['problem']);
}
