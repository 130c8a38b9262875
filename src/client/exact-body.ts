import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './openapi-types.js';

// openapi-fetch infers a call's options (`Init`) from the object literal given, and an inferred type is only checked
// for assignability, never for excess properties: `{ handler: 'noop', timeoutMS: 5 }` passes as a POST /api/tasks
// body although the spec closes it (additionalProperties: false) and the server refuses it with a 400. These types
// add the missing check: a body key that its schema does not declare, at any depth, is `never`. What the spec leaves
// open (a free object such as `params`) is typed with an index signature by openapi-typescript, and takes any key.

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type MediaType = `${string}/${string}`;
type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];
/** The operation `M` of `Path` (known to be an object, as FetchResponse requires). */
type Op<Path extends keyof paths, M extends HttpMethod> = Extract<paths[Path][M], Record<string | number, unknown>>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as openapi-typescript-helpers' RequiredKeysOf
type RequiredKeysOfHelper<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;

/** The JSON body of an operation of `paths`, or never when it takes none. */
type BodyOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/**
 * `Given` with every key that `Expected` does not declare typed `never`, in nested objects and array items too; an
 * `Expected` with a string index signature (an open object) takes `Given` as it is.
 */
export type Closed<Given, Expected> = Expected extends readonly (infer E)[]
  ? Given extends readonly unknown[]
    ? { [I in keyof Given]: Closed<Given[I], E> }
    : Given
  : Expected extends object
    ? string extends keyof Expected
      ? Given
      : { [K in keyof Given]: K extends keyof Expected ? Closed<Given[K], Exclude<Expected[K], undefined>> : never }
    : Given;

/** The call's options with its body (if any) closed as the operation's schema is. */
type ExactInit<Init, Op> = Init extends { body?: infer B } ? { body?: Closed<B, BodyOf<Op>> } : unknown;

/** openapi-fetch's InitParam (optional when nothing is required, any extra fetch option allowed), with the check. */
type InitParam<Init, Check> =
  RequiredKeysOf<Init> extends never
    ? [(Init & Check & { [key: string]: unknown })?]
    : [Init & Check & { [key: string]: unknown }];

/** A method of the typed client (`c.POST`...): openapi-fetch's, refusing a body key its schema does not declare. */
export type ExactMethod<M extends HttpMethod> = <
  Path extends PathsWith<M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init, ExactInit<Init, Op<Path, M>>>
) => Promise<FetchResponse<Op<Path, M>, Init, MediaType>>;

/** `c.request(method, path, init)` with the same check. */
export type ExactRequest = <
  M extends HttpMethod,
  Path extends PathsWith<M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  method: M,
  url: Path,
  ...init: InitParam<Init, ExactInit<Init, Op<Path, M>>>
) => Promise<FetchResponse<Op<Path, M>, Init, MediaType>>;

/** openapi-fetch's Client of `paths` whose calls refuse, at compile time, a body field the spec does not declare. */
export interface ExactClient extends Omit<
  Client<paths>,
  'request' | 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE'
> {
  request: ExactRequest;
  GET: ExactMethod<'get'>;
  PUT: ExactMethod<'put'>;
  POST: ExactMethod<'post'>;
  DELETE: ExactMethod<'delete'>;
  OPTIONS: ExactMethod<'options'>;
  HEAD: ExactMethod<'head'>;
  PATCH: ExactMethod<'patch'>;
  TRACE: ExactMethod<'trace'>;
}
