import type { IncomingMessage } from 'node:http';
import { pipeline, Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/** What {@link readBoundedBody} read. */
export interface BoundedBody {
  excerpt: Buffer;
  /** Decoded bytes read; a lower bound when `capped`. */
  bodyBytes: number;
  /** Reading stopped at `maxReadBytes` (the rest was never read). */
  capped: boolean;
}

const ZLIB = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

/**
 * The decoders of a Content-Encoding list, in the order to apply them, as Fetch decodes: gzip (x-gzip),
 * deflate (zlib-wrapped or raw), br; `identity` is skipped; any other coding leaves the body as it came.
 */
function decodersFor(header: string | undefined, firstByte: number | undefined): Transform[] {
  const codings = (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(ZLIB));
    else if (coding === 'br') decoders.push(createBrotliDecompress(BROTLI));
    // A zlib stream's first byte holds compression method 8 in its low nibble; anything else is raw deflate.
    else if (coding === 'deflate')
      decoders.push(
        decoders.length === 0 && firstByte !== undefined && (firstByte & 0x0f) !== 8
          ? createInflateRaw(ZLIB)
          : createInflate(ZLIB),
      );
    else return [];
  }
  return decoders;
}

/**
 * Reads the body of `res` as a stream, decoded per its Content-Encoding when `decode` (not for HEAD, 204 or
 * 304): keeps the first `maxExcerptBytes` decoded bytes, only counts the rest, and stops reading (everything
 * destroyed) once `maxReadBytes` decoded bytes have been read, so a compression bomb costs at most that much.
 * @throws the stream's error (a reset, bad compressed data, the request's abort).
 */
export async function readBoundedBody(
  res: IncomingMessage,
  opts: { maxExcerptBytes: number; maxReadBytes: number; decode: boolean },
): Promise<BoundedBody> {
  const raw = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await raw.next();
  const decoders = opts.decode && !first.done ? decodersFor(res.headers['content-encoding'], first.value[0]) : [];
  async function* chunks(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value;
    for (let next = await raw.next(); !next.done; next = await raw.next()) yield next.value;
  }
  let pipeError: Error | undefined;
  const source: AsyncIterable<Buffer> =
    decoders.length === 0
      ? chunks()
      : pipeline(Readable.from(chunks()), ...(decoders as [Transform]), (err) => (pipeError = err ?? undefined));
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bodyBytes = 0;
  let capped = false;
  try {
    for await (const chunk of source) {
      bodyBytes += chunk.byteLength;
      if (keptBytes < opts.maxExcerptBytes) {
        const take = chunk.subarray(0, opts.maxExcerptBytes - keptBytes);
        kept.push(take);
        keptBytes += take.byteLength;
      }
      if (bodyBytes >= opts.maxReadBytes) {
        capped = true;
        break;
      }
    }
  } finally {
    res.destroy();
    for (const d of decoders) d.destroy();
  }
  if (pipeError && !capped) throw pipeError;
  return { excerpt: Buffer.concat(kept, keptBytes), bodyBytes, capped };
}
