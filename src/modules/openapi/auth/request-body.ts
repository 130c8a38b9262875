import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, SchedulerError, ValidationError } from '../../../common/index.js';
import { bodyShapeFault } from '../filters/body-shape.js';

/** Most bytes an /api request body may have (README "API"): 2 MiB. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** How long, and how many more bytes, a connection closed with an unread body is drained before it is cut. */
const LINGER_MS = 1000;
const LINGER_BYTES = 4 * 1024 * 1024;

/** The client went away while its body was being read: there is nobody to answer. */
export class ClientGoneError extends Error {}

/** A body read to its end: its bytes and their hex SHA-256 (computed as the bytes arrived). */
export interface ReadBody {
  bytes: Buffer;
  sha256Hex: string;
}

/** True when the request announces a body: a Content-Length above 0, or a Transfer-Encoding (chunked). */
export function announcesBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

/** True when the announced body is known to fit {@link MAX_BODY_BYTES} (a Content-Length, not chunked). */
export function announcedBodyFits(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && length !== undefined && Number(length) <= MAX_BODY_BYTES;
}

/**
 * Checks the headers that describe a body before a byte of it is read: JSON (`application/json`, charset
 * utf-8 if any) and not encoded (no decompression, so a gzip bomb costs nothing) are 415 otherwise; a
 * Content-Length over {@link MAX_BODY_BYTES} is 413. A request without a body passes.
 * @throws SchedulerError(UNSUPPORTED_MEDIA_TYPE | PAYLOAD_TOO_LARGE).
 */
export function checkBodyHeaders(req: IncomingMessage): void {
  if (!announcesBody(req)) return;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new SchedulerError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      `Content-Encoding '${encoding.slice(0, 40)}' is not accepted: send the body uncompressed`,
    );
  }
  const type = req.headers['content-type'];
  // chunked, untyped: judged once read (empty is no body)
  if (type === undefined && req.headers['content-length'] === undefined) return;
  checkMediaType(type ?? '');
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw tooLarge();
}

/**
 * Checks a body read to its end whose headers left its type open (chunked, no Content-Type): it must be empty.
 * @throws SchedulerError(UNSUPPORTED_MEDIA_TYPE).
 */
export function checkReadBody(req: IncomingMessage, body: ReadBody): void {
  if (body.bytes.length > 0 && req.headers['content-type'] === undefined) checkMediaType('');
}

function checkMediaType(type: string): void {
  const [media, ...params] = type.split(';').map((p) => p.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  if (media !== 'application/json' || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new SchedulerError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      `a request body must be Content-Type application/json (utf-8); got '${type.slice(0, 80)}'`,
    );
  }
}

/**
 * Reads the body to its end, hashing it (SHA-256) as it streams in, and stops at {@link MAX_BODY_BYTES}:
 * the rest is never read (the caller closes the connection).
 * @throws SchedulerError(PAYLOAD_TOO_LARGE) past the cap; ClientGoneError when the client went away.
 */
export function readBody(req: IncomingMessage): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      req.pause();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return (stop(), reject(tooLarge()));
      hash.update(chunk);
      chunks.push(chunk);
    };
    const onEnd = () => (stop(), resolve({ bytes: Buffer.concat(chunks, size), sha256Hex: hash.digest('hex') }));
    const onGone = () => (stop(), reject(new ClientGoneError('the client went away while sending the body')));
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

/**
 * The JSON value of an authenticated body (undefined for none), as Express's JSON parser gave it: an
 * object or an array whose shape the validation pipe can walk cheaply (see bodyShapeFault: nested at most 64
 * deep, at most MAX_BODY_VALUES values and MAX_OBJECT_KEYS keys per object, no `__proto__`, `constructor` or
 * `prototype` key).
 * @throws ValidationError(`body`) for anything else than a JSON object or array; ValidationError naming
 *   the field at fault for a shape over those bounds (README "Limits").
 */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (!/^\s*[[{]/.test(text)) throw new ValidationError('body', 'the body must be a JSON object or array');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ValidationError('body', `the body is not valid JSON: ${(err as Error).message.slice(0, 200)}`);
  }
  const fault = bodyShapeFault(value);
  if (fault !== null) throw new ValidationError(fault.field, fault.message);
  return value;
}

/**
 * Makes the answer to a request whose body was left unread close the connection (`Connection: close`) the
 * way nginx's lingering close does: once the answer is written our side ends (the client reads the answer,
 * then end-of-stream), what the client still sends is discarded for at most {@link LINGER_MS} or
 * {@link LINGER_BYTES}, then the connection is cut. Node alone would destroy it at once, and a client still
 * sending would then see a reset instead of the answer. The rest of the body is never read.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  // Node calls destroySoon() once an answer marked Connection: close is written (a documented net.Socket method).
  socket.destroySoon = () => {
    socket.end();
    let discarded = 0;
    const cut = () => socket.destroy();
    const timer = setTimeout(cut, LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
    req.removeAllListeners('data');
    req.on('data', (chunk: Buffer) => (discarded += chunk.length) > LINGER_BYTES && cut());
    req.resume();
  };
}

function tooLarge(): SchedulerError {
  return new SchedulerError(
    ErrorCode.PAYLOAD_TOO_LARGE,
    `the request body is larger than ${MAX_BODY_BYTES} bytes (2 MiB)`,
  );
}
