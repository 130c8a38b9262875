import { randomFillSync } from 'node:crypto';

/** Random bytes drawn at once for ids: one randomFillSync per 256 ids instead of one getRandomValues per id. */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let poolAt = POOL_BYTES;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** The uuid package's v7 state: the last id's milliseconds and its 31-bit counter (monotonic within a process). */
let lastMs = -Infinity;
let seq = 0;

/**
 * New primary key: a 36-character UUIDv7 (RFC 9562), time-ordered so InnoDB inserts stay append-mostly.
 * Laid out as the uuid package's v7() lays it out (48-bit epoch ms, 31-bit counter seeded at random each
 * ms, then random bits; ids of one process strictly increase), its random bits read from a pool.
 */
export function newId(): string {
  if (poolAt + 16 > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const r = poolAt;
  poolAt += 16;
  const now = Date.now();
  if (now > lastMs) {
    seq = ((pool[r + 6] & 0x7f) << 24) | (pool[r + 7] << 16) | (pool[r + 8] << 8) | pool[r + 9];
    lastMs = now;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) lastMs++;
  }
  const ms = lastMs;
  return (
    HEX[(ms / 0x10000000000) & 0xff] +
    HEX[(ms / 0x100000000) & 0xff] +
    HEX[(ms / 0x1000000) & 0xff] +
    HEX[(ms / 0x10000) & 0xff] +
    '-' +
    HEX[(ms / 0x100) & 0xff] +
    HEX[ms & 0xff] +
    '-' +
    HEX[0x70 | ((seq >>> 28) & 0x0f)] +
    HEX[(seq >>> 20) & 0xff] +
    '-' +
    HEX[0x80 | ((seq >>> 14) & 0x3f)] +
    HEX[(seq >>> 6) & 0xff] +
    '-' +
    HEX[((seq << 2) & 0xff) | (pool[r + 10] & 0x03)] +
    HEX[pool[r + 11]] +
    HEX[pool[r + 12]] +
    HEX[pool[r + 13]] +
    HEX[pool[r + 14]] +
    HEX[pool[r + 15]]
  );
}
