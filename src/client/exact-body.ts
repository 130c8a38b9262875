import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './openapi-types.js';

// openapi-fetch infers a call's options from the object given, and an inferred type gets no excess-property check:
// `{ handler: 'noop', timeoutMS: 5 }` passed as a POST /api/tasks body. Here a body key its schema does not declare
// is `never`, at any depth; an open object (index signature: `params`) takes any key (docs/api.md "Typed client").

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type MediaType = `${string}/${string}`;
type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];
type Op<Path extends keyof paths, M extends HttpMethod> = Extract<paths[Path][M], Record<string | number, unknown>>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as openapi-typescript-helpers' RequiredKeysOf
type RequiredKeysOfHelper<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;

type BodyOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** `Given` with each key `Expected` does not declare (at any depth) `never`; an index signature takes any key. */
export type Closed<Given, Expected> = Expected extends readonly (infer E)[]
  ? Given extends readonly unknown[]
    ? { [I in keyof Given]: Closed<Given[I], E> }
    : Given
  : Expected extends object
    ? string extends keyof Expected
      ? Given
      : { [K in keyof Given]: K extends keyof Expected ? Closed<Given[K], Exclude<Expected[K], undefined>> : never }
    : Given;

type ExactInit<Init, Op> = Init extends { body?: infer B } ? { body?: Closed<B, BodyOf<Op>> } : unknown;

type InitParam<Init, Check> =
  RequiredKeysOf<Init> extends never
    ? [(Init & Check & { [key: string]: unknown })?]
    : [Init & Check & { [key: string]: unknown }];

export type ExactMethod<M extends HttpMethod> = <
  Path extends PathsWith<M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init, ExactInit<Init, Op<Path, M>>>
) => Promise<FetchResponse<Op<Path, M>, Init, MediaType>>;

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
