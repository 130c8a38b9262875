import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber, jsonText } from './columns.js';

/** An application allowed to call the API (DESIGN §3). The secret is AES-256-GCM encrypted at rest. */
@Entity('api_client')
export class ApiClient {
  @PrimaryColumn({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ name: 'secret_enc', type: 'varchar', length: 512 }) secretEnc: string;
  @Column({ type: 'boolean' }) enabled: boolean;
  /** Requests per second; 0 = unlimited. */
  @Column({ name: 'rate_limit', type: 'int', default: 0 }) rateLimit: number;
  @Column({ name: 'callback_hosts', type: 'text', nullable: true, transformer: jsonText }) callbackHosts: string[] | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
}
