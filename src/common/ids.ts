import { v7 as uuidv7 } from 'uuid';

/**
 * New primary key: a UUIDv7 (RFC 9562), time-ordered so InnoDB inserts stay append-mostly.
 * 36 characters.
 */
export function newId(): string {
  return uuidv7();
}
