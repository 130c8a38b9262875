import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from './columns.js';

/** A key's state: its first request is still running, or its answer is stored. */
export type IdempotencyKeyState = 'RUNNING' | 'DONE';

/**
 * One `Idempotency-Key` of one app (docs/api.md "Idempotency"): the request it was first used with (a
 * fingerprint) and, once that request answered 2xx, the answer replayed to the same request. Unique per
 * (namespace, app_id, idem_key): of concurrent duplicates, only the one whose insert won runs the route.
 * Removed by retention once `expires_at` passed (IDEMPOTENCY_KEY_TTL_MS after it was taken). Times epoch ms UTC.
 */
@Entity('idempotency_key')
@Index('uq_idempotency_key', ['namespace', 'appId', 'idemKey'], { unique: true })
@Index('ix_idempotency_key_expires', ['expiresAt'])
export class IdempotencyKey {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: number | string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  /** The header's value: 1-255 printable ASCII characters. */
  @Column({ name: 'idem_key', type: 'varchar', length: 255 }) idemKey: string;
  /** Hex SHA-256 of method, path with query and the body's SHA-256: what "the same request" means. */
  @Column({ type: 'varchar', length: 64 }) fingerprint: string;
  /** `METHOD /path` of the first request (cut at 300), for people reading the table. */
  @Column({ type: 'varchar', length: 300 }) request: string;
  @Column({ type: 'varchar', length: 8 }) state: IdempotencyKeyState;
  /** The request holding the key (a fresh UUID per run); guards the writes that end its run. */
  @Column({ type: 'varchar', length: 36 }) owner: string;
  @Column({ name: 'started_at', type: 'bigint', transformer: bigintNumber }) startedAt: number;
  @Column({ name: 'expires_at', type: 'bigint', transformer: bigintNumber }) expiresAt: number;
  /** The stored answer (state DONE): status, the headers kept (JSON object) and the JSON body (null: none). */
  @Column({ type: 'int', nullable: true }) status: number | null;
  @Column({ type: 'text', nullable: true }) headers: string | null;
  @Column({ type: 'text', nullable: true }) body: string | null;
}
