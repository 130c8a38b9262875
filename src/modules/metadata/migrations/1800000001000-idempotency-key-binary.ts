import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MySQL: `idempotency_key.app_id` and `idem_key` compare in a binary collation, as app ids do everywhere since
 * the tenancy migration. An Idempotency-Key is an opaque string: under the server's default case-insensitive
 * collation `Key-1` and `key-1` were one key (a spurious 409 IDEMPOTENCY_KEY_REUSED, or another request's
 * replay), and app `App` shared app `app`'s keys. SQLite already compares bytes.
 */
export class IdempotencyKeyBinary1800000001000 implements MigrationInterface {
  name = 'IdempotencyKeyBinary1800000001000';

  async up(q: QueryRunner): Promise<void> {
    await this.collate(q, 'utf8mb4_bin');
  }

  async down(q: QueryRunner): Promise<void> {
    await this.collate(q, 'utf8mb4_general_ci');
  }

  private async collate(q: QueryRunner, collation: string): Promise<void> {
    if (q.connection.driver.options.type !== 'mysql') return;
    const col = (name: string, len: number) =>
      `MODIFY ${name} varchar(${len}) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`;
    await q.query(`ALTER TABLE idempotency_key ${col('app_id', 64)}, ${col('idem_key', 255)}`);
  }
}
