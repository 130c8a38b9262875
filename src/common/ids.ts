import { v7 as uuidv7 } from 'uuid';

/** New primary key: a 36-character UUIDv7 (RFC 9562), time-ordered so InnoDB inserts stay append-mostly. */
export function newId(): string {
  return uuidv7();
}
